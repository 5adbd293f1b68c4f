import Foundation
import SagaCommandLine

// Before the command's thread starts, so that its heap grows in large steps too.
HeapGrowth.prepare(for: CommandLine.arguments)
exit(await SagaRunTool.main(Array(CommandLine.arguments.dropFirst()), io: ProcessIO()))
