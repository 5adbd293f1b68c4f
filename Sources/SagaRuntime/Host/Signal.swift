import Synchronization

/// A wake-up for one waiting scheduler: `signal` makes the current or next `wait` return.
///
/// Signals do not count: several before a wait wake it once.
final class Signal: Sendable {
    private struct State {
        var signalled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Waits until signalled (at once if a signal came since the last wait).
    func wait(isolation: isolated (any Actor)? = #isolation) async {
        await withCheckedContinuation(isolation: isolation) { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.signalled {
                    s.signalled = false
                    return true
                }
                s.waiter = c
                return false
            }
            if now { c.resume() }
        }
    }

    /// Waits until signalled or until `milliseconds` have passed.
    func wait(milliseconds: Int, isolation: isolated (any Actor)? = #isolation) async {
        let timer = Task { [self] in
            // Only a sleep that ran its time signals: a timer cancelled because a signal came
            // first must not wake the next wait, or each wait would end at once and start
            // another timer (a busy loop that grew a task a turn).
            do {
                try await Task.sleep(for: .milliseconds(milliseconds))
                signal()
            } catch {}
        }
        await wait()
        timer.cancel()
    }

    /// Wakes the waiter, or the next one to wait.
    func signal() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if let w = s.waiter {
                s.waiter = nil
                return w
            }
            s.signalled = true
            return nil
        }
        waiter?.resume()
    }
}
