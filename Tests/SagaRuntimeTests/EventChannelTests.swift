import SagaCore
import SagaRuntime
import SagaTestSupport
import Synchronization
import Testing

/// Event channels: a host feeds a channel from outside the sagas.
///
/// The host's messages arrive in real time, so these tests assert what arrives and in what
/// order, never when.
@Suite struct EventChannelTests {
    /// Counts how often a host's cleanup ran.
    final class Cleanups: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func ran() { count.add(1, ordering: .relaxed) }
    }

    /// A host function `ticks.open` that returns `channel`, and starts sending `messages`
    /// once a saga has it, then closes it when `closeAfter` is set.
    static func host(_ channel: EventChannel, sending messages: [Value], closeAfter: Bool) -> HostFunctions {
        var host = HostFunctions()
        host.register("ticks.open") { _ in
            Task {
                for message in messages { channel.send(message) }
                if closeAfter { channel.close() }
            }
            return channel.value
        }
        return host
    }

    /// The host's messages reach the saga in the order sent, and the host's close ends the
    /// saga's `take` as END does.
    ///
    /// Its `finally` runs, not cancelled, and the cleanup runs once. The open channel holds
    /// the run's end back until then, on the virtual clock too.
    @Test(arguments: [true, false]) func hostMessagesArriveInOrderAndTheHostsCloseEndsTheTake(virtualTime: Bool) async {
        let cleanups = Cleanups()
        let ticks = EventChannel(named: "ticks") { cleanups.ran() }
        let run = await runSaga(
            """
            extern func ticks.open()
            saga main {
              let ch = call ticks.open()
              try {
                loop {
                  let n = take ch
                  log "tick \\(n)"
                }
              } finally {
                log "ended, cancelled = \\(cancelled)"
              }
            }
            """, host: Self.host(ticks, sending: [1, 2, 3], closeAfter: true), virtualTime: virtualTime)
        #expect(run.lines == ["tick 1", "tick 2", "tick 3", "ended, cancelled = false"])
        #expect(run.status == .success)
        #expect(cleanups.value == 1)
        #expect(ticks.isClosed)
    }

    /// `close CH` from the saga closes the host's end: the cleanup runs at once (before the
    /// saga's next statement), once, and later `send`s are dropped.
    @Test func theSagasCloseRunsTheHostsCleanupOnce() async {
        let cleanups = Cleanups()
        let ticks = EventChannel(named: "ticks") { cleanups.ran() }
        var host = Self.host(ticks, sending: [1], closeAfter: false)
        host.register("cleanups") { _ in .int(cleanups.value) }
        let run = await runSaga(
            """
            extern func ticks.open()
            extern func cleanups()
            saga main {
              let ch = call ticks.open()
              let n = take ch
              close ch
              let c = call cleanups()
              log "took \\(n), cleanups \\(c)"
            }
            """, host: host)
        #expect(run.lines == ["took 1, cleanups 1"])
        ticks.send(2)
        ticks.close()
        #expect(cleanups.value == 1)
    }

    /// Messages sent before any saga has the channel wait in its buffer, as the buffer's kind
    /// says: a sliding buffer of two keeps the newest two.
    @Test func messagesSentBeforeTheSagaHasTheChannelWaitInItsBuffer() async {
        let ticks = EventChannel(named: "ticks", buffer: .sliding(2))
        for n in 1...5 { ticks.send(.int(n)) }
        ticks.close()
        var host = HostFunctions()
        host.register("ticks.open") { _ in ticks.value }
        let run = await runSaga(
            """
            extern func ticks.open()
            saga main {
              let ch = call ticks.open()
              let rest = flush ch
              log rest
              take ch
              log "not reached"
            }
            """, host: host)
        #expect(run.lines == ["[4,5]"])
    }

    /// A channel still open when the run ends (its saga returned, so no task could take from
    /// it) no longer holds the end back: the run ends, and the cleanup runs.
    @Test func theEndOfTheRunClosesAnOpenChannel() async {
        let cleanups = Cleanups()
        let ticks = EventChannel(named: "ticks") { cleanups.ran() }
        let run = await runSaga(
            """
            extern func ticks.open()
            saga main {
              let ch = call ticks.open()
              let n = take ch
              log "took \\(n)"
            }
            """, host: Self.host(ticks, sending: [7], closeAfter: false))
        #expect(run.lines == ["took 7"])
        #expect(cleanups.value == 1)
        #expect(ticks.isClosed)
    }

    /// A channel fed by an `AsyncSequence` sends its elements and closes at its end.
    @Test func aChannelFedByAnAsyncSequence() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        var host = HostFunctions()
        host.register("ticks.open") { _ in
            let channel = EventChannel(named: "ticks", from: stream)
            Task {
                for n in 1...3 { continuation.yield(.int(n)) }
                continuation.finish()
            }
            return channel.value
        }
        let run = await runSaga(
            """
            extern func ticks.open()
            saga main {
              let ch = call ticks.open()
              var sum = 0
              try {
                loop {
                  let n = take ch
                  sum = sum + n
                }
              } finally {
                log "sum \\(sum)"
              }
            }
            """, host: host)
        #expect(run.lines == ["sum 6"])
    }

    /// Closing a channel fed by an `AsyncSequence` cancels the iteration.
    @Test func closingAChannelFedByAnAsyncSequenceCancelsTheIteration() async {
        let gate = OpenableGate()
        let stream = AsyncStream<Value> { continuation in
            continuation.onTermination = { _ in gate.open() }
            continuation.yield(1)
        }
        let channel = EventChannel(named: "ticks", from: stream)
        channel.close()
        await gate.wait()
        #expect(channel.isClosed)
    }

    /// One run has one open channel of a name: a second, while the first is open, fails the
    /// call that gives it; once the first is closed, a new one of that name opens.
    @Test func aSecondOpenChannelOfTheSameNameFailsTheCall() async {
        let first = EventChannel(named: "feed")
        let second = EventChannel(named: "feed")
        let third = EventChannel(named: "feed")
        var host = HostFunctions()
        let channels = Mutex([first, second, third])
        host.register("feed.open") { _ in channels.withLock { $0.removeFirst() }.value }
        let run = await runSaga(
            """
            extern func feed.open()
            saga main {
              let a = call feed.open()
              try { call feed.open() } catch e { log "\\(e.kind): \\(e.message)" }
              close a
              let c = call feed.open()
              log "opened again"
              close c
            }
            """, host: host)
        #expect(run.lines == ["HostError: an event channel named 'feed' is open already", "opened again"])
    }

    /// Input lines feed a channel by name, as a golden test does: lines for a channel that is
    /// not open yet wait for the host call that opens it, and `"close": true` closes it.
    @Test func inputLinesFeedAChannelByName() async {
        var host = HostFunctions()
        host.register("feed.open") { _ in EventChannel(named: "feed").value }
        let run = await runSaga(
            """
            extern func feed.open()
            saga main {
              take "go"
              let ch = call feed.open()
              try {
                loop {
                  let m = take ch
                  log m
                }
              } finally {
                log "closed"
              }
            }
            """,
            input: [
                #"{"channel": "feed", "value": "early"}"#, #"{"type": "go"}"#,
                #"{"at": 5, "channel": "feed", "value": {"n": 1}}"#, #"{"channel": "feed", "close": true}"#,
            ], host: host)
        #expect(run.lines == ["early", #"{"n":1}"#, "closed"])
        #expect(run.errors.isEmpty)
    }

    /// An input line for a channel that never opens is an error once the run is over, as a
    /// mocks line no call took is: a misspelt name must not pass a golden test.
    @Test func inputForAChannelThatNeverOpensIsAnError() async {
        let run = await runSaga(
            "saga main { take \"go\" }", input: [#"{"channel": "fed", "value": 1}"#, #"{"type": "go"}"#])
        #expect(run.status == .sagaFailed)
        #expect(
            run.errors == [
                "error: input for the event channel 'fed' was not delivered: no channel of that name was open to take it"
            ])
    }

    /// An input line for a channel the saga has closed, which no call opens again, is dropped,
    /// as a host's message after a close is: a recorded session may hold such late messages.
    @Test func inputAfterTheSagaClosedItsChannelIsDropped() async {
        var host = HostFunctions()
        host.register("feed.open") { _ in EventChannel(named: "feed").value }
        let run = await runSaga(
            """
            extern func feed.open()
            saga main {
              let ch = call feed.open()
              let m = take ch
              log m
              close ch
              delay 100
              log "done"
            }
            """,
            input: [#"{"channel": "feed", "value": 1}"#, #"{"at": 50, "channel": "feed", "value": "late"}"#],
            host: host)
        #expect(run.lines == ["1", "done"])
        #expect(run.errors.isEmpty)
        #expect(run.status == .success)
    }

    /// A source that fails closes its channel with the error: what was sent before can still
    /// be taken, and then the `take` throws it, so that a saga tells a broken source from one
    /// that ended.
    @Test(arguments: [true, false]) func aSourceThatFailsFailsTheTake(virtualTime: Bool) async {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "the socket broke" }
        }
        let feed = EventChannel(named: "feed")
        var host = HostFunctions()
        host.register("feed.open") { _ in
            Task {
                feed.send(1)
                feed.send(2)
                feed.close(throwing: Broken())
            }
            return feed.value
        }
        let run = await runSaga(
            """
            extern func feed.open()
            saga main {
              let ch = call feed.open()
              var got = []
              try {
                loop {
                  let n = take ch
                  got = got + [n]
                }
              } catch e {
                log "\\(got) then \\(e.kind): \\(e.message)"
              }
            }
            """, host: host, virtualTime: virtualTime)
        #expect(run.lines == ["[1,2] then HostError: the socket broke"])
        #expect(run.status == .success)
    }

    /// Malformed channel lines are input errors that say what a channel line holds.
    @Test(arguments: [
        (#"{"channel": 3, "value": 1}"#, "'channel' must be the name of an event channel, a string"),
        (#"{"channel": "c"}"#, #"a channel line has either a 'value' or "close": true"#),
        (#"{"channel": "c", "value": 1, "close": true}"#, #"a channel line has either a 'value' or "close": true"#),
        (#"{"channel": "c", "valu": 1}"#, #"a channel line has no 'valu': it has 'value' or "close": true"#),
        (#"{"channel": "c", "value": 1, "at": -1}"#, "'at' must be a whole number of milliseconds ≥ 0"),
    ])
    func malformedChannelLines(line: String, message: String) async {
        let run = await runSaga("saga main { take \"go\" }", input: [line])
        #expect(run.status == .malformedInput(message))
    }

    /// A mocks line `"channel": NAME` answers its call with a new event channel, which input
    /// lines feed; it does not hold END back, as the input feeds it.
    @Test func aMocksLineOpensAChannelThatInputLinesFeed() async throws {
        let mocks = try HostMocks(jsonl: #"{"call": "feed.open", "channel": "feed"}"#)
        let run = await runSaga(
            """
            extern func feed.open()
            saga main {
              let ch = call feed.open()
              try {
                loop {
                  let m = take ch
                  log m
                }
              } finally {
                log "ended"
              }
            }
            """, input: [#"{"channel": "feed", "value": 1}"#, #"{"channel": "feed", "value": 2}"#],
            host: mocks.functions())
        #expect(run.lines == ["1", "2", "ended"])
        #expect(mocks.problems.isEmpty)
        #expect(throws: HostMocks.ParseError.self) { try HostMocks(jsonl: #"{"call": "f", "channel": 3}"#) }
        #expect(throws: HostMocks.ParseError.self) {
            try HostMocks(jsonl: #"{"call": "f", "channel": "c", "result": 1}"#)
        }
        #expect(throws: HostMocks.ParseError.self) { try HostMocks(jsonl: #"{"call": "f", "chanel": "c"}"#) }
    }

    /// The same host channel given twice is the same channel of the run, whether it is open
    /// or was closed before the saga had it: its messages are taken once each, in order.
    @Test func theSameHostChannelIsAlwaysTheSameChannel() async {
        let feed = EventChannel(named: "feed")
        for n in 1...3 { feed.send(.int(n)) }
        feed.close()
        var host = HostFunctions()
        host.register("feed.open") { _ in feed.value }
        let run = await runSaga(
            """
            extern func feed.open()
            saga main {
              let a = call feed.open()
              let first = take a
              let b = call feed.open()
              let second = take b
              let third = take a
              log "\\(a == b) \\(first) \\(second) \\(third)"
            }
            """, host: host)
        #expect(run.lines == ["true 1 2 3"])
    }
}
