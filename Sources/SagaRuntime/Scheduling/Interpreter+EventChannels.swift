import SagaCore

extension Interpreter {
    /// The run's channel for a host's event channel: made the first time a host call gives
    /// the channel to a saga, with the messages sent to it so far.
    ///
    /// - Throws: when another open channel of the run has its name, or another run has it.
    func openEventChannel(_ source: EventChannel) throws(SagaError) -> Channel {
        if let adopted = eventChannels.channel(of: source) { return adopted }
        if eventChannels.isOpen(source.name) {
            throw SagaError(kind: "HostError", message: "an event channel named '\(source.name)' is open already")
        }
        let channel = Channel(id: taskTree.makeID(), limit: source.buffer.limit, kind: source.buffer.kind)
        let (early, closed, failure) = try source.link(eventInbox, channel)
        eventChannels.add(channel, of: source)
        for message in early { send(message, to: channel) }
        if closed {
            channel.isClosed = true
            channel.failure = failure
        } else {
            channel.source = source
            if source.holdsEnd { eventChannels.noteSource(holdingEnd: true) }
        }
        // Input lines that came before the channel opened.
        if let input = eventChannels.takeHeldInput(for: source.name) {
            for message in input.messages { send(message, to: channel) }
            if input.closed { close(channel) }
        }
        return channel
    }

    /// The channel a handle names: a channel of the run, or a host's event channel (which it
    /// opens, the first time).
    func channel(of handle: Handle) -> Channel? {
        if let channel = handle.object as? Channel { return channel }
        guard let source = handle.object as? EventChannel else { return nil }
        return try? openEventChannel(source)
    }

    /// Closes a channel.
    ///
    /// `put`s to it do nothing from now on, and its takers, which wait on an empty buffer, end
    /// as at END, in the order they began to wait; or, for an event channel whose source failed
    /// (`failure`), fail with that error. An event channel's host runs its cleanup.
    func close(_ channel: Channel, failure: SagaError? = nil) {
        guard !channel.isClosed else { return }
        channel.isClosed = true
        channel.failure = failure
        while let taker = channel.popTaker() {
            if let failure {
                let at = taker.waitingStatementLocation ?? taker.location
                wake(taker, .error(Failure(error: failure, trace: trace(taker, at: at))))
            } else {
                wake(taker, .unwind(.end))
            }
        }
        if let source = channel.source {
            channel.source = nil
            if source.holdsEnd { eventChannels.noteSource(holdingEnd: false) }
            source.close()
        }
    }

    /// Delivers what event channels' hosts have sent since the last call, in the order sent.
    ///
    /// - Returns: whether there was anything.
    @inline(__always)
    func deliverEvents() -> Bool {
        guard _slowPath(eventInbox.hasPosted) else { return false }
        return deliverPostedEvents()
    }

    /// ``deliverEvents()`` once something was posted.
    private func deliverPostedEvents() -> Bool {
        let events = eventInbox.takeAll()
        guard !events.isEmpty else { return false }
        heardFromOutside()
        for event in events {
            switch event {
            case .message(let channel, let message): send(message, to: channel)
            case .close(let channel, let failure): close(channel, failure: failure)
            }
        }
        scheduler.flushWakeups()
        return true
    }

    /// An input line for the event channel `name`: its message, or `nil` to close it.
    ///
    /// With no channel of that name open, the line waits for the next host call that opens one.
    func deliverInput(_ message: Value?, toChannel name: String) {
        heardFromOutside()
        guard let channel = eventChannels.openChannel(named: name) else {
            eventChannels.hold(message, for: name)
            return
        }
        if let message { send(message, to: channel) } else { close(channel) }
        scheduler.flushWakeups()
    }

    /// Whether an open event channel of the host's holds END back: while it is open and some
    /// task could still take from it.
    var eventSourcesHoldEnd: Bool { eventChannels.holdsEnd && taskTree.liveTasks > 0 }

    /// Once the run is over: closes every event channel still open (each host runs its
    /// cleanup), and reports input lines for channels that never opened.
    ///
    /// Lines for a channel that opened and was closed, and did not open again, are dropped,
    /// as a host's messages after a close are.
    func closeEventChannels() {
        let (channels, undelivered) = eventChannels.removeAll()
        for channel in channels {
            channel.isClosed = true
            channel.source?.close()
            channel.source = nil
        }
        _ = eventInbox.takeAll()
        for name in undelivered {
            output.error(
                "error: input for the event channel '\(name)' was not delivered: no channel of that name was open to take it"
            )
            failures += 1
        }
    }

    /// A message from outside the sagas, into `channel`: one past the run's `maxBuffer` is
    /// dropped, and reported once.
    private func send(_ message: Value, to channel: Channel) {
        guard !channelPut(channel, message), !channel.reportedOverflow else { return }
        channel.reportedOverflow = true
        output.error(
            "warning: an event channel holds \(options.maxBuffer) messages (--max-buffer): later ones are dropped")
    }
}
