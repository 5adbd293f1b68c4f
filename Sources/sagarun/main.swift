import Foundation
import SagaCommandLine

exit(await SagaRunTool.main(Array(CommandLine.arguments.dropFirst()), io: ProcessIO()))
