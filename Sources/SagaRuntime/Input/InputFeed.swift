import Foundation

/// Reads an ``InputSource`` on a thread of its own, for real-time runs: lines are handed
/// to the scheduler as they arrive.
final class InputFeed: @unchecked Sendable {
    enum Event {
        case line(InputLine)
        case failed(InputError)
    }

    private let lock = NSLock()
    private var events: [Event] = []
    private var finished = false

    init(source: InputSource, wake: Signal) {
        let thread = Thread { [self] in
            while true {
                let event: Event?
                do throws(InputError) {
                    event = try source.next().map { .line($0) }
                } catch {
                    event = .failed(error)
                }
                lock.lock()
                if let event { events.append(event) }
                let done: Bool
                if case .line? = event { done = false } else { done = true }
                if done { finished = true }
                lock.unlock()
                wake.signal()
                if done { return }
            }
        }
        thread.start()
    }

    /// Whether the input has ended (all its events may not be drained yet).
    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished && events.isEmpty
    }

    /// The events that arrived since the last call.
    func drain() -> [Event] {
        lock.lock()
        defer { lock.unlock() }
        let out = events
        events.removeAll()
        return out
    }
}
