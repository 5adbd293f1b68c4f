import Foundation

/// Decodes a log segment on a thread of its own (``start()``) and hands the records to the
/// thread that applies them, in order, a batch at a time: on two cores, decoding and building
/// the index overlap.
///
/// At most ``limit`` batches wait, so a big segment is never held decoded in memory all at
/// once.
///
/// The segment's bytes must stay valid until ``pop()`` has returned nil or ``cancel()`` has
/// returned: both wait for the decoding thread to stop reading them.
final class DecodeQueue: @unchecked Sendable {
    /// Records per batch: few enough to start applying soon, many enough that the lock is rare.
    static let batchSize = 4096
    private static let limit = 4

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var batches: [[LogDecoder.Entry]] = []
    private var head = 0
    private var done = false
    private var cancelled = false
    /// The decoder, owned by the decoding thread until `done`.
    private var decoder: LogDecoder

    init(_ decoder: LogDecoder) {
        self.decoder = decoder
    }

    /// Starts decoding on a new thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "saga-store-decode"
        thread.start()
    }

    /// The decoder where it stopped (see ``LogDecoder/stop``); once ``pop()`` has returned nil.
    var stopped: LogDecoder {
        condition.lock()
        defer { condition.unlock() }
        return decoder
    }

    private func run() {
        var decoder = self.decoder
        var batch: [LogDecoder.Entry] = []
        batch.reserveCapacity(DecodeQueue.batchSize)
        while let entry = decoder.next() {
            // The applying side throws at a record that cannot be applied: nothing after it matters.
            let failed = entry.failure != nil
            batch.append(entry)
            if failed { break }
            if batch.count == DecodeQueue.batchSize {
                guard push(batch) else { break }
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { _ = push(batch) }
        condition.lock()
        self.decoder = decoder
        done = true
        condition.broadcast()
        condition.unlock()
    }

    /// Adds a batch, waiting while the queue is full; false once the reader has cancelled.
    private func push(_ batch: [LogDecoder.Entry]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count - head >= DecodeQueue.limit && !cancelled { condition.wait() }
        if cancelled { return false }
        batches.append(batch)
        condition.broadcast()
        return true
    }

    /// The next batch, waiting for it; nil once the decoder stopped and all were taken.
    func pop() -> [LogDecoder.Entry]? {
        condition.lock()
        defer { condition.unlock() }
        while head == batches.count && !done { condition.wait() }
        guard head < batches.count else { return nil }
        let batch = batches[head]
        batches[head] = []
        head += 1
        if head == batches.count {
            batches.removeAll(keepingCapacity: true)
            head = 0
        }
        condition.broadcast()
        return batch
    }

    /// Stops the decoder (the applying side hit an error) and waits until it has.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        condition.broadcast()
        while !done { condition.wait() }
    }
}
