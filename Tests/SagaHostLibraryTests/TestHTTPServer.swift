import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1, for the tests of `http.*`: each connection gets one
/// answer, chosen by the request's path, and the server remembers what it saw.
///
/// - `/json`: `{"ok":true}` as `application/json`; `/text`: `hello` as `text/plain`;
/// - `/echo`: the request's method, body and `x-test` header, as JSON;
/// - `/status/N`: an empty answer with status N;
/// - `/hang`: no answer; the server records when the client closes the connection;
/// - `/redirect`: a 302 to `/json`; `/chunked`: `{"chunked":true}` in three chunks; `/big`: 100 KB.
final class TestHTTPServer: @unchecked Sendable {
    /// The port it listens on.
    let port: Int
    private let socket: Int32
    /// Paths of `/hang` requests whose client closed the connection.
    let closedHangs = Mutex<Int>(0)
    /// Requests received, by path.
    let received = Mutex<[String]>([])
    /// Set by ``stop()``: the accept loop closes the socket as it ends, so that its number is
    /// not reused (by another test's server) while the loop may still accept on it.
    private let stopped = Atomic<Bool>(false)

    /// Starts listening on a free port; `nil` if no socket could be made.
    init?() {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            return nil
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops accepting connections: the accept loop wakes, ends, and closes the socket.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        shutdown(socket, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { close(socket) }
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { return }
            DispatchQueue.global().async { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = readRequest(client) else { return }
        received.withLock { $0.append(request.path) }
        switch request.path {
        case "/json": answer(client, 200, "application/json", #"{"ok":true}"#)
        case "/text": answer(client, 200, "text/plain", "hello")
        case "/echo":
            let record: [String: String] = [
                "method": request.method, "body": request.body, "x-test": request.headers["x-test"] ?? "",
                "content-type": request.headers["content-type"] ?? "",
            ]
            let data = (try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])) ?? Data()
            answer(client, 200, "application/json", String(decoding: data, as: UTF8.self))
        case "/redirect": answer(client, 302, "text/plain", "", extra: "Location: /json\r\n")
        case "/big": answer(client, 200, "text/plain", String(repeating: "x", count: 100_000))
        case "/chunked":
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            let body = "5\r\n{\"chu\r\n9\r\nnked\":tru\r\n1\r\ne\r\n1\r\n}\r\n0\r\n\r\n"
            let all = Array((head + body).utf8)
            _ = all.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        case "/hang":
            // No answer: wait for the client to close its end.
            var byte: UInt8 = 0
            while recv(client, &byte, 1, 0) > 0 {}
            closedHangs.withLock { $0 += 1 }
        default:
            if request.path.hasPrefix("/status/"), let code = Int(request.path.dropFirst("/status/".count)) {
                answer(client, code, "text/plain", "")
            } else {
                answer(client, 404, "text/plain", "not found")
            }
        }
    }

    private struct Request {
        var method: String
        var path: String
        var headers: [String: String]
        var body: String
    }

    /// Reads one request: its head, then as many body bytes as `content-length` says.
    private func readRequest(_ client: Int32) -> Request? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            let n = recv(client, &buffer, buffer.count, 0)
            guard n > 0 else { return nil }
            data.append(contentsOf: buffer[0..<n])
            headEnd = data.range(of: Data("\r\n\r\n".utf8))
        }
        guard let headEnd else { return nil }
        let head = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let first = lines.removeFirst().split(separator: " ")
        guard first.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Data(data[headEnd.upperBound...])
        let length = Int(headers["content-length"] ?? "") ?? 0
        while body.count < length {
            let n = recv(client, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            body.append(contentsOf: buffer[0..<n])
        }
        return Request(
            method: String(first[0]), path: String(first[1]), headers: headers,
            body: String(decoding: body, as: UTF8.self))
    }

    private func answer(_ client: Int32, _ status: Int, _ type: String, _ body: String, extra: String = "") {
        let bytes = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status) X\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\n\(extra)"
            + "Connection: close\r\n\r\n"
        let all = Array(head.utf8) + bytes
        _ = all.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
