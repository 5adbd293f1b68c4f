import Foundation
import SagaCore
import SagaHostLibrary
import SagaRuntime
import Testing

/// `http.*` against a server of the tests' own on 127.0.0.1.
@Suite struct HostHTTPTests {
    /// JSON comes back decoded, text as text; a status that is not 2xx is a value.
    @Test func responsesComeBackAsValues() async throws {
        let server = try #require(TestHTTPServer())
        defer { server.stop() }
        let host = HostLibrary(permissions: .all).functions
        let json = try await call(host, "http.get", [.string(server.url("/json"))])
        #expect(json["status"] == 200)
        #expect(json["body"] == ["ok": true])
        #expect(json["headers"]["content-type"] == "application/json")
        #expect(try await call(host, "http.get", [.string(server.url("/text"))])["body"] == "hello")
        let missing = try await call(host, "http.get", [.string(server.url("/status/503"))])
        #expect(missing["status"] == 503)
    }

    /// A redirect is a value, not followed; a chunked body is read whole; a body past
    /// `--max-length` is a RangeError.
    @Test func redirectsChunksAndLimits() async throws {
        let server = try #require(TestHTTPServer())
        defer { server.stop() }
        let host = HostLibrary(permissions: .all, maxLength: 50_000).functions
        let moved = try await call(host, "http.get", [.string(server.url("/redirect"))])
        #expect(moved["status"] == 302)
        #expect(moved["headers"]["location"] == "/json")
        #expect(try await call(host, "http.get", [.string(server.url("/chunked"))])["body"] == ["chunked": true])
        #expect(await failure(host, "http.get", [.string(server.url("/big"))])?.kind == "RangeError")
        #expect(server.received.withLock { $0 } == ["/redirect", "/chunked", "/big"])
    }

    /// A record body goes out as JSON; method, headers and a string body go as given.
    @Test func requestsCarryTheirBodyAndHeaders() async throws {
        let server = try #require(TestHTTPServer())
        defer { server.stop() }
        let host = HostLibrary(permissions: .all).functions
        let posted = try await call(host, "http.post", [.string(server.url("/echo")), ["n": 1]])
        #expect(
            posted["body"]
                == ["method": "POST", "body": #"{"n":1}"#, "x-test": "", "content-type": "application/json"])
        let put = try await call(
            host, "http.request",
            [["method": "put", "url": .string(server.url("/echo")), "headers": ["X-Test": "yes"], "body": "raw"]])
        #expect(put["body"]["method"] == "PUT")
        #expect(put["body"]["body"] == "raw")
        #expect(put["body"]["x-test"] == "yes")
    }

    /// Only the hosts allowed are reached, and nothing reaches the server otherwise.
    @Test func onlyAllowedHostsAreReached() async throws {
        let server = try #require(TestHTTPServer())
        defer { server.stop() }
        var permissions = HostPermissions()
        permissions.net = .only(["127.0.0.1:\(server.port)"])
        let allowed = HostLibrary(permissions: permissions).functions
        #expect(try await call(allowed, "http.get", [.string(server.url("/json"))])["status"] == 200)
        let denied = await failure(
            HostLibrary(permissions: HostPermissions()).functions, "http.get", [.string(server.url("/json"))])
        #expect(denied?.kind == "PermissionError")
        #expect(denied?.message.contains("--allow-net=127.0.0.1:\(server.port)") == true)
        #expect(server.received.withLock { $0 } == ["/json"])
    }

    /// A URL that does not parse, a port nobody listens on, and a response that is not JSON
    /// when JSON was asked are errors that say so.
    @Test func badRequestsAreClearErrors() async throws {
        let server = try #require(TestHTTPServer())
        defer { server.stop() }
        let host = HostLibrary(permissions: .all).functions
        #expect(await failure(host, "http.get", ["not a url"])?.message.contains("not an http or https URL") == true)
        #expect(await failure(host, "http.get", ["ftp://127.0.0.1/x"])?.kind == "HttpError")
        let closed = TestHTTPServer()
        let port = closed?.port ?? 1
        closed?.stop()
        #expect(await failure(host, "http.get", [.string("http://127.0.0.1:\(port)/")])?.kind == "HttpError")
        let slow = await failure(host, "http.get", [.string(server.url("/hang")), ["timeout": 50]])
        #expect(slow?.kind == "Timeout")
        let notJSON = await failure(host, "http.get", [.string(server.url("/text")), ["json": true]])
        #expect(notJSON?.kind == "HttpError")
        #expect(notJSON?.message.contains("not JSON") == true)
    }

    /// Cancelling the calling task aborts the request: the server sees the connection closed.
    @Test func cancellingTheCallAbortsTheRequest() async throws {
        let server = try #require(TestHTTPServer())
        defer { server.stop() }
        let host = HostLibrary(permissions: .all).functions
        let request = Task { try await call(host, "http.get", [.string(server.url("/hang"))]) }
        #expect(await eventually { server.received.withLock { !$0.isEmpty } })
        request.cancel()
        _ = await request.result
        #expect(await eventually { server.closedHangs.withLock { $0 } == 1 })
    }
}
