import Foundation
import SagaCore
import SagaRuntime

extension HostLibrary {
    /// `env(name)`: the environment variable's value, or null when it is not set; `args()`:
    /// the script's arguments (those after `--` on `sagarun`'s command line), as strings.
    static func registerEnvironment(_ host: inout HostFunctions, _ context: Context) {
        host.register("env") { args in
            try expect(args, 1, 1, "env")
            let name = try string(args, 0, "env", "the variable's name")
            guard context.permissions.allowsEnv(name) else {
                throw denied("reading the environment variable '\(name)'", flag: "--allow-env", value: name)
            }
            return ProcessInfo.processInfo.environment[name].map { .string($0) } ?? .null
        }
        host.register("args") { args in
            try expect(args, 0, 0, "args")
            return .list(context.arguments.map { .string($0) })
        }
    }
}
