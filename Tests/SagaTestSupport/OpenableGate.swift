import Synchronization

/// A gate that async code waits at until it is opened, once: a host function or a store
/// held at a chosen point, so that a test decides what happens meanwhile.
package final class OpenableGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// A closed gate.
    package init() {}

    /// Returns once the gate is open (at once if it is already).
    package func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.open { return true }
                s.waiters.append(c)
                return false
            }
            if now { c.resume() }
        }
    }

    /// Opens the gate: every waiter goes on, and later ones do not wait.
    package func open() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for w in waiters { w.resume() }
    }
}
