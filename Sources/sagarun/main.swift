import Foundation
import SagaCommandLine

// Before the command's thread starts, so that its heap grows in large steps too.
HeapGrowth.prepare(for: CommandLine.arguments)
let io = ProcessIO()
var code = await SagaRunTool.main(Array(CommandLine.arguments.dropFirst()), io: io)
// A transcript that could not be written (a full disk) is a failed run, whatever it did.
if let failure = io.outputFailure {
    io.err("error: cannot write standard output: \(failure)\n")
    code = 74
}
exit(code)
