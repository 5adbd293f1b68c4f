@_spi(Testing) import SagaRuntime
import Testing

/// A watcher's body is named after its watcher in an error's stack (`every body`), not as the
/// fork block its loop forks; with the short turns and without them.
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

    /// A block a program forks itself keeps its name.
    @Test func aForkBlockKeepsItsName() async throws {
        let run = await runConfigured(
            "saga main { fork { throw \"x\" } }", input: [])
        #expect(run.errors.first?.contains("at fork block (test.saga:1:20)") == true, "\(run.errors)")
    }
}
