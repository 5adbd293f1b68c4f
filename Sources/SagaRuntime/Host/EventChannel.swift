import SagaCore
import Synchronization

/// A channel that something outside the sagas feeds, as redux-saga's `eventChannel`.
///
/// A WebSocket's messages, a file watcher or a timer of the app's own reach sagas this way.
/// The host makes one, hands it to a saga as the result of a host function (``value``), and
/// then ``send(_:)``s messages into it from any thread; the saga `take`s them as from any
/// channel. Either side can close it: the host with ``close()``, the saga with `close CH`.
/// Closing runs the host's `onClose` cleanup once, and so does the end of the run, for a
/// channel still open then.
///
/// ```swift
/// host.register("chat.connect") { args in
///     let socket = try await ChatSocket.connect(to: args.first ?? .null)
///     let messages = EventChannel(named: "chat.messages", buffer: .sliding(100)) {
///         socket.disconnect()
///     }
///     socket.onMessage = { text in messages.send(.string(text)) }
///     socket.onDisconnect = { messages.close() }
///     return messages.value
/// }
/// ```
///
/// A message sent before the saga has the channel waits in its buffer. An open channel from
/// the host holds back END while any task runs (see “END” in Sagas/README.md): the run waits
/// for it to close.
/// Input lines reach it by name: `{"channel": "chat.messages", "value": …}`.
public final class EventChannel: Sendable {
    /// The name that input lines and error messages use.
    public let name: String
    /// What a full buffer does with a new message.
    public let buffer: Buffer
    /// Whether the channel, while open, holds back END: true for a channel of the host's, false
    /// for one a mocks file opens (the input feeds it, and ends with the input).
    let holdsEnd: Bool
    /// Its id in ``value``, until a run gives it one of its own.
    private let provisionalID: Int
    private let state: Mutex<State>

    private struct State: ~Copyable {
        /// Messages sent before a run took the channel, oldest first.
        var early: [Value] = []
        var isClosed = false
        /// The error it was closed with, if its source failed.
        var failure: SagaError?
        var onClose: (@Sendable () -> Void)?
        /// The run that has the channel, once one does.
        var link: Link?
    }

    /// Where a channel's messages go once a run has it.
    struct Link: Sendable {
        var inbox: EventInbox
        var channel: Channel
    }

    /// Makes an open event channel.
    ///
    /// - Parameters:
    ///   - name: how input lines address it (`{"channel": NAME, "value": …}`); one run has at
    ///     most one open channel of a name.
    ///   - buffer: what happens to messages the saga has not taken yet: kept without a limit,
    ///     or kept up to a size, with the newest or the oldest dropped past it.
    ///   - onClose: what to do once the channel closes, from either side or at the end of the
    ///     run: unsubscribe from the source. It runs once, on the thread that closes the
    ///     channel (the scheduler's, for `close CH`), so it should not block.
    public convenience init(named name: String, buffer: Buffer = .unbounded, onClose: (@Sendable () -> Void)? = nil) {
        self.init(named: name, buffer: buffer, holdsEnd: true, onClose: onClose)
    }

    /// Makes an event channel fed by `messages`.
    ///
    /// Each element is sent, and the channel closes when the sequence ends (or, when it
    /// throws, closes throwing its error: see ``close(throwing:)``). Closing the channel first
    /// cancels the iteration.
    ///
    /// ```swift
    /// let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    /// let ticks = EventChannel(named: "ticks", from: stream)
    /// ```
    public convenience init<Messages: AsyncSequence & Sendable>(
        named name: String, buffer: Buffer = .unbounded, from messages: Messages
    ) where Messages.Element == Value {
        let pump = Pump()
        self.init(named: name, buffer: buffer, holdsEnd: true) { pump.cancel() }
        pump.start { [self] in
            do {
                for try await message in messages { send(message) }
                close()
            } catch {
                close(throwing: error)
            }
        }
    }

    /// The task that feeds a channel from an `AsyncSequence`, cancelled when the channel closes.
    private final class Pump: Sendable {
        private let state = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

        func start(_ body: @escaping @Sendable () async -> Void) {
            let task = Task { await body() }
            let cancelled = state.withLock { s -> Bool in
                s.task = task
                return s.cancelled
            }
            if cancelled { task.cancel() }
        }

        func cancel() {
            let task = state.withLock { s -> Task<Void, Never>? in
                s.cancelled = true
                return s.task
            }
            task?.cancel()
        }
    }

    init(named name: String, buffer: Buffer, holdsEnd: Bool, onClose: (@Sendable () -> Void)?) {
        self.name = name
        self.buffer = buffer
        self.holdsEnd = holdsEnd
        self.provisionalID = -Self.counter.add(1, ordering: .relaxed).newValue
        self.state = Mutex(State(onClose: onClose))
    }

    private static let counter = Atomic<Int>(0)

    /// The channel as a value: what a host function returns to give it to a saga.
    public var value: Value { .handle(Handle(kind: .channel, id: provisionalID, object: self)) }

    /// Whether the channel is closed.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Sends a message to the saga: the oldest taker gets it, or it waits in the buffer.
    ///
    /// Safe from any thread. Messages arrive in the order they are sent; a message sent after
    /// the channel closed is dropped, as a `put` to a closed channel is.
    public func send(_ message: Value) {
        let link = state.withLock { s -> Link? in
            if s.isClosed { return nil }
            guard let link = s.link else {
                buffer.add(message, to: &s.early)
                return nil
            }
            return link
        }
        if let link { link.inbox.post(.message(link.channel, message)) }
    }

    /// Closes the channel, and runs the `onClose` cleanup the first time.
    ///
    /// A saga's `take` of it, once its buffer is empty, ends as at END.
    public func close() { close(failure: nil) }

    /// Closes the channel because its source failed, as `AsyncThrowingStream`'s
    /// `finish(throwing:)` does.
    ///
    /// Once its buffer is empty, a saga's `take` of it throws `error` (a `HostError` with its
    /// description, unless it is a `SagaError`), so that the saga can tell a broken source from
    /// one that ended. Runs the `onClose` cleanup the first time.
    public func close(throwing error: any Error) {
        close(failure: error as? SagaError ?? SagaError(kind: "HostError", message: String(describing: error)))
    }

    private func close(failure: SagaError?) {
        let (link, cleanup) = state.withLock { s -> (Link?, (@Sendable () -> Void)?) in
            if s.isClosed { return (nil, nil) }
            s.isClosed = true
            s.failure = failure
            defer {
                s.onClose = nil
                s.link = nil
            }
            return (s.link, s.onClose)
        }
        if let link { link.inbox.post(.close(link.channel, failure)) }
        cleanup?()
    }

    /// Gives the channel to a run: from now on its messages go to `inbox` for `channel`.
    ///
    /// - Returns: the messages sent so far, whether it is closed already, and the error it
    ///   was closed with.
    /// - Throws: when another run has the channel.
    func link(
        _ inbox: EventInbox, _ channel: Channel
    ) throws(SagaError) -> (
        early: [Value], isClosed: Bool, failure: SagaError?
    ) {
        try state.withLock { s throws(SagaError) -> ([Value], Bool, SagaError?) in
            if let link = s.link, link.inbox !== inbox {
                throw SagaError(kind: "HostError", message: "the event channel '\(name)' belongs to another run")
            }
            if !s.isClosed { s.link = Link(inbox: inbox, channel: channel) }
            defer { s.early = [] }
            return (s.early, s.isClosed, s.failure)
        }
    }
}
