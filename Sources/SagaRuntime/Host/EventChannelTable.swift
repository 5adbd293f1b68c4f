import SagaCore

/// The event channels of a run (see ``EventChannel``): each host channel the run has taken,
/// the run's channel for each name, the input lines for channels not open yet, and how many
/// open channels hold END back.
///
/// Bookkeeping only: the interpreter sends, closes and wakes.
struct EventChannelTable {
    /// The run's channel for each name: the last opened under it.
    private var byName: [String: Channel] = [:]
    /// Every host channel the run has taken, open or closed, with its channel of the run: the
    /// same host channel is always the same channel (the source is kept, so that its
    /// identifier is not another's).
    private var bySource: [ObjectIdentifier: (source: EventChannel, channel: Channel)] = [:]
    /// Input lines for event channels no host call has opened yet, by name: their messages,
    /// and whether a line closed the channel.
    private var earlyInput: [String: (messages: [Value], closed: Bool)] = [:]
    /// How many open event channels hold END back.
    private var holdingEnd = 0

    /// Whether an open event channel holds END back.
    var holdsEnd: Bool { holdingEnd > 0 }

    /// The run's channel of a host channel taken before.
    func channel(of source: EventChannel) -> Channel? {
        bySource[ObjectIdentifier(source)]?.channel
    }

    /// The open channel under `name`, if any.
    func openChannel(named name: String) -> Channel? {
        guard let channel = byName[name], !channel.isClosed else { return nil }
        return channel
    }

    /// Whether a channel is open under `name`.
    func isOpen(_ name: String) -> Bool { openChannel(named: name) != nil }

    /// Notes that `channel` is the run's channel of `source`, under its name.
    mutating func add(_ channel: Channel, of source: EventChannel) {
        byName[source.name] = channel
        bySource[ObjectIdentifier(source)] = (source, channel)
    }

    /// Notes that an open channel whose source holds END back opened (`true`) or closed.
    mutating func noteSource(holdingEnd opened: Bool) {
        holdingEnd += opened ? 1 : -1
    }

    /// Keeps an input line for the channel `name`, not open yet: a message, or its close (`nil`).
    mutating func hold(_ message: Value?, for name: String) {
        if let message {
            earlyInput[name, default: ([], false)].messages.append(message)
        } else {
            earlyInput[name, default: ([], false)].closed = true
        }
    }

    /// The input lines kept for `name`, which they leave.
    mutating func takeHeldInput(for name: String) -> (messages: [Value], closed: Bool)? {
        earlyInput.removeValue(forKey: name)
    }

    /// Empties the table at the end of a run.
    ///
    /// - Returns: the channels that were opened, and the names of the channels never opened
    ///   that input was kept for, sorted.
    mutating func removeAll() -> (channels: [Channel], undelivered: [String]) {
        for name in byName.keys { earlyInput[name] = nil }
        let result = (Array(byName.values), earlyInput.keys.sorted())
        self = EventChannelTable()
        return result
    }
}
