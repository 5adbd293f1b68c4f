import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// A typed host function of three arguments decodes each, and names itself when one is wrong.
@Suite struct ThreeArgumentHostFunctionTests {
    @Test func threeTypedArgumentsAreDecoded() async throws {
        var host = HostFunctions()
        host.register("catalog.describe") { (title: String, album: String, year: Int) async throws -> String in
            "\(title) on \(album) (\(year))"
        }
        let source = """
            saga main {
              let line = call catalog.describe("So What", "Kind of Blue", 1959)
              log line
              try { call catalog.describe("x", "y", "z") } catch e { log e.message }
            }
            """
        let program = try #require(Frontend(hostFunctions: host.names).compile(source: source, path: "h.saga").program)
        let output = BufferedOutput()
        let status = await Interpreter(program: program, options: .init(virtualTime: true), host: host, output: output)
            .run()
        #expect(status == .success)
        #expect(
            output.lines == [
                "So What on Kind of Blue (1959)", #"catalog.describe: argument 3: expected Int, got "z""#,
            ])
    }
}
