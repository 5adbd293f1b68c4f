import Foundation
import SagaCommandLine
import SagaPersistence
import Testing

/// `sagarun` with the file store: what one run saves, the next run finds; a store in use
/// by someone else is refused with exit code 74.
@Suite struct PersistenceCommandTests {
    static let save = """
        saga main {
          put "persistence/save" { entity: "songs", element: { id: 2, title: "Kind of Blue", year: 1959 } }
          put "persistence/save" { entity: "songs", element: { id: 1, title: "Blue Train", year: 1957 } }
          let a = take "persistence/saved"
          let b = take "persistence/saved"
          log "saved \\(a.element.id) and \\(b.element.id)"
        }
        """

    static let query = """
        saga main {
          put "persistence/request" { entity: "songs", orderBy: ["-year"], ref: "q" }
          let r = take "persistence/received"
          log r
        }
        """

    @Test func whatOneRunSavesTheNextRunFinds() async {
        await ExitCodeTests.withFiles(["save.saga": Self.save, "query.saga": Self.query]) { dir in
            let store = dir.appendingPathComponent("store").path
            let first = await runSagarun([
                dir.appendingPathComponent("save.saga").path, "--virtual-time", "--store", store,
            ])
            #expect(first.code == 0)
            #expect(first.out == "saved 2 and 1\n")
            let second = await runSagarun([
                dir.appendingPathComponent("query.saga").path, "--virtual-time", "--store", store,
            ])
            #expect(second.code == 0)
            #expect(
                second.out
                    == #"{"elements":[{"id":2,"title":"Kind of Blue","year":1959},{"id":1,"title":"Blue Train","year":1957}],"entity":"songs","ref":"q","type":"persistence/received"}"#
                    + "\n")
        }
    }

    /// Saves put one after another, without waiting, reach the store in that order: the last
    /// one put is the one kept (the middleware hands each to the store as it is dispatched).
    @Test func savesPutWithoutWaitingLandInTheOrderTheyWerePut() async {
        let program = """
            saga main {
              for i in range(300) {
                put "persistence/save" { entity: "songs", element: { id: i % 2, v: i } }
              }
              for i in range(300) { take "persistence/saved" }
              put "persistence/request" { entity: "songs" }
              let r = take "persistence/received"
              log r.elements
            }
            """
        await ExitCodeTests.withFiles(["order.saga": program]) { dir in
            let store = dir.appendingPathComponent("store").path
            let r = await runSagarun([
                dir.appendingPathComponent("order.saga").path, "--virtual-time", "--store", store,
            ])
            #expect(r.code == 0)
            #expect(r.out == #"[{"id":0,"v":298},{"id":1,"v":299}]"# + "\n")
        }
    }

    /// A request with a key it does not have, a `live` that is not a bool, or a misspelt
    /// operator fails, saying which; `meta` rides along.
    @Test func aRequestWithAKeyItDoesNotHaveFails() async {
        let program = """
            saga main {
              put "persistence/save" { entity: "t", element: { id: 1, prio: 3 } }
              take "persistence/saved"
              let requests = [
                { entity: "t", where: { prio: { "~": 3 } } }, { entity: "t", limt: 1 }, { entity: "t", live: "yes" },
                { entity: "t", where: { prio: { ">=": 3 } }, meta: { from: "test" } },
              ]
              for request in requests {
                put "persistence/request" request
                let r = take "persistence/*"
                log "\\(r.type) \\(r.error ?? len(r.elements))"
              }
            }
            """
        await ExitCodeTests.withFiles(["request.saga": program]) { dir in
            let r = await runSagarun([dir.appendingPathComponent("request.saga").path, "--virtual-time", "--memory"])
            #expect(r.code == 0, "\(r.err)")
            #expect(
                r.out == """
                    persistence/requestFailed '~' in the condition on 'prio' is no operator (== != < <= > >= in contains prefix)
                    persistence/requestFailed a request has no 'limt': it has entity, where, orderBy, limit, offset, live, ref and meta
                    persistence/requestFailed 'live' is true or false, not "yes"
                    persistence/received 1

                    """)
        }
    }

    /// A save or a delete with a key it does not have (a misspelt `element`) fails, naming the
    /// key, rather than saving `null` or deleting nothing; `ref` and `meta` ride along.
    ///
    /// A delete whose `id` and element's id differ fails too.
    @Test func aSaveOrDeleteWithAKeyItDoesNotHaveFails() async {
        let program = """
            saga main {
              let writes = [
                ["persistence/save", { entity: "t", elment: { id: 1 } }],
                ["persistence/save", { entity: "t", element: { id: 1 }, ref: 7, meta: { from: "test" } }],
                ["persistence/delete", { entity: "t", idd: 1 }],
                ["persistence/delete", { entity: "t", id: 1, meta: 2 }],
                ["persistence/save", { entity: "t", element: { id: 2 } }],
                ["persistence/delete", { entity: "t", id: 3, element: { id: 2 } }],
                ["persistence/delete", { entity: "t", id: 2.0, element: { id: 2 } }],
              ]
              for w in writes {
                put w[0] w[1]
                let r = take "persistence/*"
                log "\\(r.type) \\(r.error ?? r.element)"
              }
            }
            """
        await ExitCodeTests.withFiles(["write.saga": program]) { dir in
            let r = await runSagarun([dir.appendingPathComponent("write.saga").path, "--virtual-time", "--memory"])
            #expect(r.code == 0, "\(r.err)")
            #expect(
                r.out == """
                    persistence/saveFailed a save has no 'elment': it has entity, element, ref and meta
                    persistence/saved {"id":1}
                    persistence/deleteFailed a delete has no 'idd': it has entity, element or id, ref and meta
                    persistence/deleted {"id":1}
                    persistence/saved {"id":2}
                    persistence/deleteFailed a delete's id 3 and its element's id 2 differ: name the element by one of them
                    persistence/deleted {"id":2}

                    """)
        }
    }

    /// A request put right after saves and a delete, without waiting for their results, reads
    /// them: with no live request (the writes go straight to the store), and with one on the
    /// entity (they wait on the entity's lock, and the request behind them).
    @Test(arguments: [false, true])
    func aRequestPutAfterWritesReadsThem(live: Bool) async {
        let program = """
            saga main {
              \(live ? #"put "persistence/request" { entity: "songs", live: true, ref: "live" }"# : "")
              \(live ? #"take "persistence/received""# : "")
              for i in range(100) {
                put "persistence/save" { entity: "songs", element: { id: i } }
              }
              put "persistence/delete" { entity: "songs", id: 0 }
              put "persistence/request" { entity: "songs", ref: "once" }
              let r = take "persistence/received" where it.ref == "once"
              log "\\(len(r.elements)) from \\(r.elements[0].id)"
            }
            """
        await ExitCodeTests.withFiles(["read.saga": program]) { dir in
            let store = dir.appendingPathComponent("store").path
            let r = await runSagarun([
                dir.appendingPathComponent("read.saga").path, "--virtual-time", "--store", store,
            ])
            #expect(r.code == 0)
            #expect(r.out == "99 from 1\n")
        }
    }

    /// A live request's `received`s follow its entity's writes in the order they were made, in
    /// real time too: each write's results are handed on before the next write of the entity
    /// starts, so the last `received` holds every element (one run in ten ended on an older
    /// result with the memory store).
    @Test func aLiveRequestEndsOnTheLastWriteInRealTime() async throws {
        let program = """
            state { lens: [] }
            reduce "persistence/received" as r { state.lens = state.lens + [len(r.elements)] }
            saga main {
              put "persistence/request" { entity: "S", live: true }
              for i in range(100) { put "persistence/save" { entity: "S", element: { id: i } } }
            }
            """
        try await ExitCodeTests.withFiles(["live.saga": program]) { dir in
            for _ in 0..<80 {
                let r = await runSagarun([dir.appendingPathComponent("live.saga").path, "--memory", "--print-state"])
                #expect(r.code == 0, "\(r.err)")
                // The run ends once every result is in: the state holds the length of each
                // `received`, in the order they came.
                let state = try #require(r.out.split(separator: "\n").last { $0.hasPrefix("state ") })
                struct Lengths: Decodable { var lens: [Int] }
                let lens = try JSONDecoder().decode(Lengths.self, from: Data(state.dropFirst(6).utf8)).lens
                #expect(lens.last == 100, "\(lens)")
                #expect(lens == lens.sorted(), "\(lens)")
                if lens.last != 100 || lens != lens.sorted() { break }
            }
        }
    }

    /// The results of saves committed together are events of their own, each dispatched once
    /// nothing else can run: a router that takes each and puts it into a channel is back at its
    /// `take` for the next, and misses none.
    @Test func resultsCommittedTogetherReachATakerOneAtATime() async {
        let program = """
            saga main {
              let inbox = channel
              let router = fork {
                loop {
                  let a = take "persistence/saved"
                  put inbox a
                }
              }
              for i in range(50) {
                fork { put "persistence/save" { entity: "e", element: { id: i } } }
              }
              var n = 0
              while n < 50 {
                take inbox
                n = n + 1
              }
              log "all \\(n) saves routed"
              cancel router
            }
            """
        await ExitCodeTests.withFiles(["router.saga": program]) { dir in
            for timing in [[], ["--virtual-time"]] {
                let store = dir.appendingPathComponent("store\(timing.count)").path
                let r = await runSagarun([dir.appendingPathComponent("router.saga").path, "--store", store] + timing)
                #expect(r.code == 0)
                #expect(r.out == "all 50 saves routed\n", "\(timing): \(r.err)")
            }
        }
    }

    /// The store opens at the first persistence action: a program that never persists
    /// creates no store folder, and runs while another process holds the store.
    @Test func aProgramThatNeverPersistsLeavesTheStoreAlone() async throws {
        try await ExitCodeTests.withFiles(["hello.saga": #"saga main { log "hello" }"#]) { dir in
            let folder = dir.appendingPathComponent("store").path
            let first = await runSagarun([dir.appendingPathComponent("hello.saga").path, "--store", folder])
            #expect(first.code == 0)
            #expect(first.out == "hello\n")
            #expect(!FileManager.default.fileExists(atPath: folder))
            let holder = try FileStore.open(directory: folder)
            let second = await runSagarun([dir.appendingPathComponent("hello.saga").path, "--store", folder])
            #expect(second.code == 0)
            #expect(second.err == "")
            await holder.close()
        }
    }

    /// A saga learns that the store could not be opened from the failure action, with the
    /// reason; the run then ends with exit code 74.
    @Test func aSagaSeesWhyTheStoreCouldNotBeOpened() async throws {
        let program = """
            saga main {
              put "persistence/save" { entity: "songs", element: { id: 1 } }
              let f = take "persistence/saveFailed"
              log f.error
            }
            """
        try await ExitCodeTests.withFiles(["save.saga": program]) { dir in
            let folder = dir.appendingPathComponent("store").path
            let holder = try FileStore.open(directory: folder)
            let r = await runSagarun([
                dir.appendingPathComponent("save.saga").path, "--virtual-time", "--store", folder,
            ])
            #expect(r.code == 74)
            #expect(r.out.contains("in use by this process (process \(getpid()))"))
            #expect(r.err.components(separatedBy: "error: cannot open the store").count == 2)
            await holder.close()
        }
    }

    @Test func aStoreInUseIsRefusedWithExitCode74() async throws {
        try await ExitCodeTests.withFiles(["query.saga": Self.query]) { dir in
            let folder = dir.appendingPathComponent("store").path
            let holder = try FileStore.open(directory: folder)
            let r = await runSagarun([
                dir.appendingPathComponent("query.saga").path, "--virtual-time", "--store", folder,
            ])
            #expect(r.code == 74)
            #expect(r.err.contains("error: cannot open the store '\(folder)'"))
            #expect(r.err.contains("in use by this process (process \(getpid()))"))
            await holder.close()
            let again = await runSagarun([
                dir.appendingPathComponent("query.saga").path, "--virtual-time", "--store", folder,
            ])
            #expect(again.code == 0)
        }
    }
}
