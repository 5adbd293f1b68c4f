import SagaCore
import SagaLanguage

extension EventChannel {
    /// What an event channel does with messages the saga has not taken yet.
    public enum Buffer: Sendable, Equatable {
        /// Keeps them all, up to the run's `maxBuffer`; past it a message is dropped and
        /// reported.
        case unbounded
        /// Keeps up to this many; a new message is dropped when they are all taken.
        case dropping(Int)
        /// Keeps up to this many; the oldest is dropped to make room for a new one.
        case sliding(Int)

        /// The size of the buffer, `nil` for ``unbounded``.
        var limit: Int? {
            switch self {
            case .unbounded: nil
            case .dropping(let n), .sliding(let n): max(0, n)
            }
        }

        /// The kind of the run's channel.
        var kind: BufferKind {
            switch self {
            case .unbounded: .expanding
            case .dropping: .dropping
            case .sliding: .sliding
            }
        }

        /// Adds `message` to `messages`, as a full buffer of this kind does.
        func add(_ message: Value, to messages: inout [Value]) {
            switch self {
            case .unbounded:
                messages.append(message)
            case .dropping(let n):
                if messages.count < n { messages.append(message) }
            case .sliding(let n):
                guard n > 0 else { return }
                if messages.count >= n { messages.removeFirst() }
                messages.append(message)
            }
        }
    }
}
