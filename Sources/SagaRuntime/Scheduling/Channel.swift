import SagaCore
import SagaLanguage
import SagaStore

/// A channel: a FIFO of messages between tasks.
///
/// Unbounded unless a buffer size is named; what a full buffer does with a message is its
/// ``kind``: drop it, drop the oldest to make room (the sliding buffer `throttle` uses), or
/// refuse it.
final class Channel: @unchecked Sendable {
    let id: Int
    /// `nil` for unbounded.
    let limit: Int?
    /// What a full buffer does with a new message.
    let kind: BufferKind
    @exclusivity(unchecked) var messages = RingBuffer<Value>()
    /// Tasks blocked on `take`, with the token they blocked with.
    @exclusivity(unchecked) var takers = RingBuffer<(task: SagaTask, token: Int)>()
    /// For an `actionChannel`: the pattern of the actions it queues.
    @exclusivity(unchecked) var pattern: ActionPattern?
    /// For an `actionChannel`: where it stands among the tasks waiting for actions (a number
    /// of their ``SagaTask/waitSequence``), as it was made or last took an action in.
    @exclusivity(unchecked) var waitSequence = 0
    /// Set once an overflow of this action channel has been reported.
    @exclusivity(unchecked) var reportedOverflow = false
    /// Set by `close`: puts do nothing, and takes of an empty channel end as at END.
    @exclusivity(unchecked) var isClosed = false
    /// Set when an event channel's source failed: a `take` of the closed, empty channel throws
    /// it instead of ending as at END.
    @exclusivity(unchecked) var failure: SagaError?
    /// For an event channel: the host's end, closed with it.
    @exclusivity(unchecked) var source: EventChannel?
    /// For an `actionChannel`: where it was made, for the message when its buffer overflows.
    @exclusivity(unchecked) var madeAt: SourceLocation?

    init(id: Int, limit: Int?, kind: BufferKind = .dropping) {
        self.id = id
        self.limit = limit
        self.kind = kind
    }

    var handle: Value { .handle(Handle(kind: .channel, id: id, object: self)) }

    /// Whether its buffer is full: a `fixed` one then refuses a message.
    var isFull: Bool {
        limit.map { messages.count >= $0 } ?? false
    }

    /// Buffers a message that no taker is waiting for, honouring the limit (a full `fixed`
    /// buffer is the caller's to refuse).
    func buffer(_ message: Value) {
        if let limit, messages.count >= limit {
            if kind == .sliding, limit > 0 {
                _ = messages.popFirst()
                messages.append(message)
            }
            return
        }
        messages.append(message)
    }

    /// The oldest taker still blocked on this channel, removing stale entries.
    func popTaker() -> SagaTask? {
        while let entry = takers.popFirst() {
            if entry.task.token == entry.token, case .channel(let ch) = entry.task.wait, ch === self {
                return entry.task
            }
        }
        return nil
    }

    /// The error of a `put` this channel's buffer refused: its own `fixed` buffer is full, or
    /// it would hold more than `maxBuffer` messages (`--max-buffer`).
    func overflowError(maxBuffer: Int) -> SagaError {
        if kind == .fixed, isFull, let limit {
            return SagaError(kind: "RangeError", message: "the channel's fixed buffer of \(limit) is full")
        }
        return SagaError(
            kind: "RangeError",
            message: "a channel's buffer would hold more than \(maxBuffer) messages; raise the limit with --max-buffer")
    }
}
