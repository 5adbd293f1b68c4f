import Foundation
import SagaCore
import Synchronization

/// The single writer of a ``FileStore``: a dedicated thread that appends queued saves and
/// deletes to the log, syncs once per batch (group commit), applies the batch to the index,
/// and only then tells the callers.
///
/// Blocking system calls run on this thread, never on Swift's cooperative pool.
///
/// Any failed system call on this path (a write, an fdatasync, a snapshot step) is fatal for
/// the handle: after it, every call throws that error. Nothing retries a sync, because a
/// retried fsync can report success for data the kernel already dropped.
final class LogWriter: @unchecked Sendable {
    let dir: StoreDirectory
    let snapshotThreshold: Int
    /// How far ahead of its records the log grows (see LogWriter+Preallocation); 0: never.
    let preallocation: Int
    /// Written by this thread after each sync; read by queries.
    let index: Mutex<EntityIndex>

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Pending] = []
    private var closing = false
    private var finished = false
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    /// Callers of ``compact()``, resumed with nil or the error once the snapshot is written.
    private var compactWaiters: [CheckedContinuation<StoreError?, Never>] = []
    private var failure: StoreError?
    /// How many writes have been queued, and how many of those the writer is done with
    /// (applied to the index, or failed).
    private var submitted = 0
    private var done = 0
    /// Callers of ``awaitWritesSubmitted()``, each resumed once `done` reaches its count.
    private var doneWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    // Owned by the writer thread once it starts.
    private let lock: StoreLock.Held
    var logFD: Int32
    var logHeader: FileHeader
    var seed: UInt32
    var generation: Int {
        didSet { logName = StoreFormat.logName(generation) }
    }
    /// The current segment's file name (`log-` and the generation in 16 digits), for errors:
    /// made once a segment rather than at each commit, where it would be a noticeable part of
    /// a save's cost.
    private(set) var logName: String
    var nextSequence: UInt64
    var logBytes: Int
    /// How far the current segment's file reaches: records go at `headerSize + logBytes`,
    /// and the zeros between there and here were written ahead (see ``preallocate(for:)``).
    var allocatedEnd: Int
    /// Whether the current segment may hold zeros past its records (a preallocation was
    /// tried since the last trim).
    var mayHaveZeros = false

    init(dir: StoreDirectory, lock: StoreLock.Held, recovered: Recovered, snapshotThreshold: Int, preallocation: Int) {
        self.dir = dir
        self.preallocation = preallocation
        self.lock = lock
        self.snapshotThreshold = snapshotThreshold
        self.index = Mutex(recovered.index)
        self.logFD = recovered.logFD
        self.logHeader = recovered.logHeader
        self.seed = recovered.logHeader.frameSeed
        self.generation = recovered.generation
        self.logName = StoreFormat.logName(recovered.generation)
        self.nextSequence = recovered.nextSequence
        self.logBytes = recovered.logBytes
        self.allocatedEnd = StoreFormat.headerSize + recovered.logBytes
    }

    /// Starts the writer thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "saga-store-writer"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Queues a write; its `finish` is called once it is synced (or has failed).
    func submit(_ pending: Pending) {
        condition.lock()
        if let error = failure ?? (closing ? StoreError.closed : nil) {
            condition.unlock()
            pending.finish(.failure(error))
            return
        }
        queue.append(pending)
        submitted += 1
        condition.signal()
        condition.unlock()
    }

    /// Returns once every write queued before the call is applied to the index (or has
    /// failed): a query made after it sees them, as soon as they are durable.
    func awaitWritesSubmitted() async {
        guard hasWritesInFlight() else { return }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            condition.lock()
            if done >= submitted || finished {
                condition.unlock()
                c.resume()
                return
            }
            doneWaiters.append((submitted, c))
            condition.unlock()
        }
    }

    /// Whether a write queued so far is not applied yet: a query then waits.
    private func hasWritesInFlight() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return done < submitted && !finished
    }

    /// The writer is done with `count` more writes: resumes the callers of
    /// ``awaitWritesSubmitted()`` they were waiting for (all of them once the writer stops).
    private func finishedWrites(_ count: Int, stopping: Bool = false) {
        condition.lock()
        done += count
        var ready: [CheckedContinuation<Void, Never>] = []
        doneWaiters.removeAll { waiter in
            guard stopping || waiter.count <= done else { return false }
            ready.append(waiter.continuation)
            return true
        }
        condition.unlock()
        for c in ready { c.resume() }
    }

    /// The error every call must throw now: the fatal failure, or `.closed`; nil when healthy.
    func unusable() -> StoreError? {
        condition.lock()
        defer { condition.unlock() }
        return failure ?? (closing ? StoreError.closed : nil)
    }

    /// Writes a snapshot after the queued writes (whatever the log's size) and waits for it.
    func compact() async throws(StoreError) {
        let error = await withCheckedContinuation { (c: CheckedContinuation<StoreError?, Never>) in
            condition.lock()
            if let error = failure ?? (closing ? StoreError.closed : nil) {
                condition.unlock()
                c.resume(returning: error)
                return
            }
            compactWaiters.append(c)
            condition.signal()
            condition.unlock()
        }
        if let error { throw error }
    }

    /// The failure that made the handle unusable, if one did.
    var fatalFailure: StoreError? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    /// Finishes the queued writes, closes the files and releases the lock.
    func close() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            condition.lock()
            if finished {
                condition.unlock()
                c.resume()
                return
            }
            closing = true
            closeWaiters.append(c)
            condition.signal()
            condition.unlock()
        }
    }

    /// Asks the writer to stop without waiting (the store handle is gone).
    func requestClose() {
        condition.lock()
        closing = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && compactWaiters.isEmpty && !closing { condition.wait() }
            let batch = queue
            queue = []
            let compactions = compactWaiters
            compactWaiters = []
            let failed = failure
            condition.unlock()
            if batch.isEmpty && compactions.isEmpty {
                shutDown()
                return
            }
            if let failed {
                for p in batch { p.finish(.failure(failed)) }
                finishedWrites(batch.count)
                for c in compactions { c.resume(returning: failed) }
                continue
            }
            if !batch.isEmpty {
                do throws(StoreError) {
                    try commit(batch)
                } catch {
                    fail(error)
                    for p in batch { p.finish(.failure(error)) }
                    finishedWrites(batch.count)
                    for c in compactions { c.resume(returning: error) }
                    continue
                }
                let results = index.withLock { idx in
                    batch.map { p -> Value? in
                        if p.type == StoreFormat.save {
                            idx.save(entity: p.entity, id: p.id, element: p.element)
                            return p.element
                        }
                        return idx.delete(entity: p.entity, id: p.id)
                    }
                }
                for (p, result) in zip(batch, results) { p.finish(.success(result)) }
                finishedWrites(batch.count)
            }
            if logBytes >= snapshotThreshold || !compactions.isEmpty {
                var snapshotError: StoreError?
                do throws(StoreError) { try snapshot() } catch {
                    fail(error)
                    snapshotError = error
                }
                for c in compactions { c.resume(returning: snapshotError) }
            }
        }
    }

    /// Appends the batch's frames in one write and syncs once.
    private func commit(_ batch: [Pending]) throws(StoreError) {
        var out = BinaryWriter(capacity: batch.reduce(0) { $0 + $1.payload.count + 17 })
        for p in batch {
            p.payload.withUnsafeBytes {
                Frame.append(into: &out, type: p.type, sequence: nextSequence, payload: $0, seed: seed)
            }
            nextSequence += 1
        }
        let name = logName
        preallocate(for: out.bytes.count)
        try dir.writeAll(logFD, out.bytes, name: name)
        do { try dir.fs.fdatasync(logFD) } catch { throw error.storeError(path: dir.path(of: name)) }
        logBytes += out.bytes.count
    }

    private func fail(_ error: StoreError) {
        condition.lock()
        if failure == nil { failure = error }
        condition.unlock()
    }

    private func shutDown() {
        condition.lock()
        let healthy = failure == nil
        condition.unlock()
        if healthy { try? trimPreallocation() }
        dir.fs.close(logFD)
        lock.release(dir.fs)
        condition.lock()
        finished = true
        let waiters = closeWaiters
        closeWaiters = []
        let stragglers = queue
        queue = []
        let compactions = compactWaiters
        compactWaiters = []
        condition.unlock()
        for p in stragglers { p.finish(.failure(.closed)) }
        finishedWrites(stragglers.count, stopping: true)
        for c in compactions { c.resume(returning: .closed) }
        for w in waiters { w.resume() }
    }
}
