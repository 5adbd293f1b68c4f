import SagaTestSupport

/// When a round kills its child: counted from the launch (so some kills land while the store
/// is still recovering from the previous one), or from the first acknowledged save (so the
/// kill surely lands while writes are in flight).
enum KillMoment: CustomStringConvertible {
    case afterLaunch(milliseconds: Int)
    case afterFirstSave(milliseconds: Int)

    /// Even rounds count from the launch, odd rounds from the first save; the delay is a
    /// random 20–300 ms.
    static func forRound(_ round: Int, using random: inout SplitMix64) -> KillMoment {
        let ms = Int.random(in: 20...300, using: &random)
        return round.isMultiple(of: 2) ? .afterLaunch(milliseconds: ms) : .afterFirstSave(milliseconds: ms)
    }

    var milliseconds: Int {
        switch self {
        case .afterLaunch(let ms), .afterFirstSave(let ms): return ms
        }
    }

    var description: String {
        switch self {
        case .afterLaunch(let ms): return "\(ms) ms after launch"
        case .afterFirstSave(let ms): return "\(ms) ms after the first save"
        }
    }
}
