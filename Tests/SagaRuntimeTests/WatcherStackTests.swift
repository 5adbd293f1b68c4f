@_spi(Testing) import SagaRuntime
import Testing

/// A watcher's body is named after its watcher in an error's stack (`every body`), not as the
/// fork block its loop forks; with the short cuts and without them.
@Suite struct WatcherStackTests {
    static let source = """
        func helper(x) {
          throw "bad \\(x)"
        }
        saga main {
          latest "go" as a {
            call helper(a.n)
          }
        }
        """

    @Test(arguments: [true, false])
    func aWatchersBodyIsNamedAfterItsWatcher(shortCuts: Bool) async throws {
        let run = await runConfigured(Self.source, input: [#"{"type":"go","n":1}"#]) { $0.shortCuts = shortCuts }
        let error = try #require(run.errors.first)
        #expect(
            error == """
                error: saga main failed: bad 1
                    at func helper (test.saga:2:3)
                    called by latest body at test.saga:6:5
                    forked by latest watcher at test.saga:5:3
                    forked by saga main at test.saga:5:3
                """)
    }

    /// A task spawned by a body that has ended, failing later, still names the body and those
    /// above it: an ended task keeps its parent.
    @Test func aTaskSpawnedByAnEndedBodyNamesItsWholeStack() async throws {
        let run = await runConfigured(
            """
            saga main {
              every "go" as a {
                spawn {
                  delay 5ms
                  throw "late \\(a.n)"
                }
              }
            }
            """, input: [#"{"type":"go","n":1}"#])
        let error = try #require(run.errors.first)
        #expect(
            error == """
                error: spawned block failed: late 1
                    at spawn block (test.saga:5:7)
                    spawned by every body at test.saga:3:5
                    forked by every watcher at test.saga:2:3
                    forked by saga main at test.saga:2:3
                """)
    }

    /// So does one spawned under blocks that have all ended, each above the other.
    @Test func aTaskSpawnedUnderEndedBlocksNamesThemAll() async throws {
        let run = await runConfigured(
            """
            saga main {
              fork {
                fork {
                  spawn {
                    delay 5ms
                    throw "late"
                  }
                }
              }
            }
            """, input: [])
        let error = try #require(run.errors.first)
        #expect(
            error == """
                error: spawned block failed: late
                    at spawn block (test.saga:6:9)
                    spawned by fork block at test.saga:4:7
                    forked by fork block at test.saga:3:5
                    forked by saga main at test.saga:2:3
                """)
    }

    /// `leading` calls its body, as the reference writes it: the stack says so.
    @Test func aLeadingBodyIsCalledByItsWatcher() async throws {
        let run = await runConfigured(
            "saga main {\n  leading \"go\" as a {\n    throw \"bad\"\n  }\n}\n", input: [#"{"type":"go"}"#])
        let error = try #require(run.errors.first)
        #expect(
            error == """
                error: saga main failed: bad
                    at leading body (test.saga:3:5)
                    called by leading watcher at test.saga:2:3
                    forked by saga main at test.saga:2:3
                """)
    }

    /// A block a program forks itself keeps its name.
    @Test func aForkBlockKeepsItsName() async throws {
        let run = await runConfigured(
            "saga main { fork { throw \"x\" } }", input: [])
        #expect(run.errors.first?.contains("at fork block (test.saga:1:20)") == true, "\(run.errors)")
    }
}
