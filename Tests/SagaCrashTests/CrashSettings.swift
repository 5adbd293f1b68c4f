import Foundation

/// How long a crash run is and where its randomness starts, from the environment.
///
/// - `SAGA_CRASH_ROUNDS`: kills per run (default 5, enough for CI; `scripts/crash-soak.sh`
///   asks for 300).
/// - `SAGA_CRASH_SEED`: replays the kill moments of an earlier run (each failure names its seed).
struct CrashSettings {
    var rounds: Int
    var seed: UInt64

    static func fromEnvironment() -> CrashSettings {
        let env = ProcessInfo.processInfo.environment
        let rounds = env["SAGA_CRASH_ROUNDS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 5
        let seed = env["SAGA_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)
        return CrashSettings(rounds: rounds, seed: seed)
    }
}
