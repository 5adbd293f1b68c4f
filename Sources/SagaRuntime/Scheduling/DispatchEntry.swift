import SagaCore

/// An action waiting in the dispatch queue, with the task that put it (if one did); or a
/// message a task put into a channel, which waits its turn in the same queue.
struct DispatchEntry {
    var action: Value
    var putter: SagaTask?
    var putterToken: Int
    /// The channel the message goes to; `nil` for an action.
    var channel: Channel? = nil
}
