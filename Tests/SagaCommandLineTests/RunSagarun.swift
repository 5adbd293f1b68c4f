import SagaCommandLine

/// Runs `sagarun` with `args` in this process: its exit code and what it printed.
func runSagarun(_ args: [String]) async -> (code: Int32, out: String, err: String) {
    let io = CapturedIO()
    let code = await SagaRunTool.main(args, io: io)
    return (code, io.stdout, io.stderr)
}
