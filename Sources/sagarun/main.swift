import Foundation
import SagaCommandLine

exit(SagaRunTool.main(Array(CommandLine.arguments.dropFirst()), io: ProcessIO()))
