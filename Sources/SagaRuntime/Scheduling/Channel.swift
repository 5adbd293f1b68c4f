import SagaCore
import SagaStore

/// A channel: a FIFO of messages between tasks.
///
/// Unbounded unless a buffer size is named; a full buffer drops the newest message (or, for
/// the sliding buffer that `throttle` uses, the oldest).
final class Channel: @unchecked Sendable {
    let id: Int
    /// `nil` for unbounded.
    let limit: Int?
    /// Keep the newest message when full (throttle's buffer) instead of dropping it.
    let sliding: Bool
    @exclusivity(unchecked) var messages = RingBuffer<Value>()
    /// Tasks blocked on `take`, with the token they blocked with.
    @exclusivity(unchecked) var takers = RingBuffer<(task: SagaTask, token: Int)>()
    /// For an `actionChannel`: the pattern of the actions it queues.
    @exclusivity(unchecked) var pattern: ActionPattern?
    /// Set once an overflow of this action channel has been reported.
    @exclusivity(unchecked) var reportedOverflow = false

    init(id: Int, limit: Int?, sliding: Bool = false) {
        self.id = id
        self.limit = limit
        self.sliding = sliding
    }

    var handle: Value { .handle(Handle(kind: .channel, id: id, object: self)) }

    /// Buffers a message that no taker is waiting for, honouring the limit.
    func buffer(_ message: Value) {
        if let limit, messages.count >= limit {
            if sliding, limit > 0 {
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
}
