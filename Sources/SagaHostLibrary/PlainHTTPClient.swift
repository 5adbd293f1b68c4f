import Foundation
import SagaCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 over plain TCP, for `http://` URLs: one thread waits on every connection with
/// `poll`, and connections to a host are kept alive and reused.
///
/// Sagas that call a server at once are the workload: a request costs one hop to the I/O
/// thread and one back, where `URLSession` costs several on Linux. (`poll` over the
/// connections rather than `epoll`, which Glibc's Swift module does not show.) Responses are read whole,
/// with a `Content-Length`, chunked, or up to the close of the connection; redirects are not
/// followed (a 3xx is a value, as every status is).
final class PlainHTTPClient: @unchecked Sendable {
    /// A request to send, and what to do with its response.
    struct Request {
        var host: String
        var port: Int
        /// The whole request: head and body.
        var bytes: [UInt8]
        /// `HEAD` requests have a body-less response whatever its headers say.
        var isHead: Bool
        /// When it fails with a timeout, in `DispatchTime` nanoseconds (0 for none).
        var deadline: UInt64
        var maxLength: Int
        var done: @Sendable (Result<Response, PlainHTTPError>) -> Void
    }

    /// A response read whole.
    struct Response {
        var status: Int
        /// Header names in lower case, in order (a repeated header is joined with ", ").
        var headers: [(String, String)]
        var body: [UInt8]
    }

    /// Why a request failed.
    enum PlainHTTPError: Error {
        case connect(String)
        case broken(String)
        case timedOut
        case tooLong(Int)
        case cancelled
    }

    /// The client every library shares: its thread starts at the first request.
    static let shared = PlainHTTPClient()

    private struct Shared {
        var submitted: [(Int, Request)] = []
        var cancelled: [Int] = []
        var nextID = 1
        var started = false
    }

    private let shared = Mutex(Shared())
    /// A pipe whose read end wakes the I/O thread when a request or a cancel is submitted.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    /// Sends `request`, and gives an id for ``cancel(_:)``.
    ///
    /// The request's `done` is called once, on the I/O thread.
    func send(_ request: Request) -> Int {
        let (id, start) = shared.withLock { s -> (Int, Bool) in
            let id = s.nextID
            s.nextID += 1
            s.submitted.append((id, request))
            defer { s.started = true }
            return (id, !s.started)
        }
        if start {
            let thread = Thread { [self] in loop() }
            thread.name = "sagas.http"
            thread.start()
        }
        wake()
        return id
    }

    /// Fails the request `id` with ``PlainHTTPError/cancelled`` and drops its connection, unless
    /// it has ended.
    func cancel(_ id: Int) {
        shared.withLock { $0.cancelled.append(id) }
        wake()
    }

    private func wake() {
        var one: UInt8 = 1
        _ = write(wakeWrite, &one, 1)
    }

    // MARK: The I/O thread's state

    /// One TCP connection and the request it carries, if any.
    private final class Connection {
        let fd: Int32
        let key: String
        var request: Request?
        var requestID = 0
        var written = 0
        var input: [UInt8] = []
        /// Set once the head is read: the status, headers, and where the body starts.
        var head: (status: Int, headers: [(String, String)], bodyStart: Int)?
        /// Reused connections may have been closed by the server meanwhile: a request that
        /// finds one closed before any byte came back is sent again once, on a new connection.
        var reused = false

        init(fd: Int32, key: String) {
            self.fd = fd
            self.key = key
        }
    }

    private var idle: [String: [Connection]] = [:]
    private var busy: [Int32: Connection] = [:]

    private func loop() {
        var fds: [pollfd] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for connection in busy.values {
                let writing = connection.written < (connection.request?.bytes.count ?? 0)
                fds.append(pollfd(fd: connection.fd, events: Int16(writing ? POLLOUT : POLLIN), revents: 0))
            }
            for list in idle.values {
                for connection in list { fds.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)) }
            }
            let n = poll(&fds, nfds_t(fds.count), nextTimeout())
            if n > 0 {
                for entry in fds where entry.revents != 0 {
                    if entry.fd == wakeRead {
                        while read(wakeRead, &buffer, buffer.count) > 0 {}
                        takeSubmitted()
                    } else if let connection = busy[entry.fd] {
                        service(connection, entry.revents)
                    } else {
                        // An idle connection the server closed (or wrote to): drop it.
                        dropIdle(entry.fd)
                    }
                }
            }
            expire()
        }
    }

    /// Milliseconds until the nearest deadline, or -1 for none.
    private func nextTimeout() -> Int32 {
        let deadlines = busy.values.compactMap { $0.request?.deadline }.filter { $0 > 0 }
        guard let nearest = deadlines.min() else { return -1 }
        let now = DispatchTime.now().uptimeNanoseconds
        return nearest <= now ? 0 : Int32(min((nearest - now) / 1_000_000 + 1, 60_000))
    }

    private func expire() {
        let now = DispatchTime.now().uptimeNanoseconds
        for connection in Array(busy.values) {
            if let deadline = connection.request?.deadline, deadline > 0, deadline <= now {
                finish(connection, .failure(.timedOut), keep: false)
            }
        }
    }

    private func takeSubmitted() {
        let (submitted, cancelled) = shared.withLock { s -> ([(Int, Request)], [Int]) in
            defer { (s.submitted, s.cancelled) = ([], []) }
            return (s.submitted, s.cancelled)
        }
        for (id, request) in submitted { start(id, request) }
        for id in cancelled {
            if let connection = busy.values.first(where: { $0.requestID == id }) {
                finish(connection, .failure(.cancelled), keep: false)
            }
        }
    }

    /// Puts `request` on an idle connection to its host, or a new one.
    private func start(_ id: Int, _ request: Request, retried: Bool = false) {
        let key = "\(request.host):\(request.port)"
        let connection: Connection
        if !retried, let reused = idle[key]?.popLast() {
            connection = reused
            connection.reused = true
        } else {
            switch connect(request.host, request.port, key) {
            case .success(let made): connection = made
            case .failure(let error):
                request.done(.failure(error))
                return
            }
        }
        connection.request = request
        connection.requestID = id
        connection.written = 0
        connection.input.removeAll(keepingCapacity: true)
        connection.head = nil
        busy[connection.fd] = connection
        flush(connection)
    }

    /// A new non-blocking connection (its connect may still be under way).
    private func connect(_ host: String, _ port: Int, _ key: String) -> Result<Connection, PlainHTTPError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(.connect("cannot resolve '\(host)': \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        var lastError = ECONNREFUSED
        while let info = cursor {
            cursor = info.pointee.ai_next
            let fd = socket(
                info.pointee.ai_family,
                info.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue),
                info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            var on: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                return .success(Connection(fd: fd, key: key))
            }
            lastError = errno
            close(fd)
        }
        return .failure(.connect("cannot connect to \(host):\(port): \(String(cString: strerror(lastError)))"))
    }

    private func service(_ connection: Connection, _ events: Int16) {
        if events & Int16(POLLERR) != 0, connection.written < (connection.request?.bytes.count ?? 0) {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(connection.fd, SOL_SOCKET, SO_ERROR, &error, &length)
            fail(connection, error == 0 ? "the connection failed" : String(cString: strerror(error)))
            return
        }
        if events & Int16(POLLOUT) != 0 { flush(connection) }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(connection) }
    }

    /// Writes what is left of the request.
    private func flush(_ connection: Connection) {
        guard let request = connection.request, connection.written < request.bytes.count else { return }
        let n = request.bytes.withUnsafeBytes { buffer in
            Glibc.send(
                connection.fd, buffer.baseAddress.map { $0 + connection.written }, buffer.count - connection.written,
                Int32(MSG_NOSIGNAL))
        }
        if n > 0 {
            connection.written += n
        } else if n < 0, errno != EAGAIN, errno != EINTR, errno != ENOTCONN {
            fail(connection, String(cString: strerror(errno)))
        }
    }

    /// Reads what has come, and finishes the request once its response is whole.
    private func receive(_ connection: Connection) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var closed = false
        while true {
            let n = recv(connection.fd, &buffer, buffer.count, 0)
            if n > 0 {
                connection.input.append(contentsOf: buffer[0..<n])
                if let request = connection.request, connection.input.count > request.maxLength + 65536 {
                    finish(connection, .failure(.tooLong(request.maxLength)), keep: false)
                    return
                }
                continue
            }
            if n == 0 { closed = true }
            if n < 0, errno != EAGAIN, errno != EINTR { closed = true }
            break
        }
        switch parse(connection, closed: closed) {
        case .incomplete:
            if closed {
                if connection.reused, connection.input.isEmpty, let request = connection.request {
                    // The server had closed the kept connection: send again on a new one.
                    let id = connection.requestID
                    discard(connection)
                    start(id, request, retried: true)
                } else {
                    fail(connection, "the server closed the connection before the response ended")
                }
            }
        case .complete(let response, let keep):
            finish(connection, .success(response), keep: keep && !closed)
        case .failed(let error):
            finish(connection, .failure(error), keep: false)
        }
    }

    private enum Parsed {
        case incomplete
        case complete(Response, keep: Bool)
        case failed(PlainHTTPError)

        static func invalid(_ why: String) -> Parsed { .failed(.broken(why)) }
    }

    /// The response in the connection's input, if it is whole.
    private func parse(_ connection: Connection, closed: Bool) -> Parsed {
        let input = connection.input
        if connection.head == nil {
            guard let end = Self.find([13, 10, 13, 10], in: input, from: 0) else {
                return input.count > 65536 ? .invalid("the response's head is too long") : .incomplete
            }
            let text = String(decoding: input[0..<end], as: UTF8.self)
            var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
            let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
            guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
                return .invalid("the server did not answer in HTTP/1.x")
            }
            var headers: [(String, String)] = []
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if let i = headers.firstIndex(where: { $0.0 == name }) {
                    headers[i].1 += ", " + value
                } else {
                    headers.append((name, value))
                }
            }
            connection.head = (status, headers, end + 4)
        }
        guard let head = connection.head, let request = connection.request else { return .incomplete }
        func header(_ name: String) -> String? { head.headers.first { $0.0 == name }?.1 }
        let keep = header("connection")?.lowercased().contains("close") != true
        if request.isHead || head.status == 204 || head.status == 304 || (100..<200).contains(head.status) {
            return .complete(Response(status: head.status, headers: head.headers, body: []), keep: keep)
        }
        if header("transfer-encoding")?.lowercased().contains("chunked") == true {
            switch Self.dechunk(input, from: head.bodyStart) {
            case nil: return .incomplete
            case .some(nil): return .invalid("a bad chunk in the response")
            case .some(let body?):
                if body.count > request.maxLength { return .failed(.tooLong(request.maxLength)) }
                return .complete(Response(status: head.status, headers: head.headers, body: body), keep: keep)
            }
        }
        if let lengthText = header("content-length") {
            guard let length = Int(lengthText), length >= 0 else { return .invalid("a bad Content-Length") }
            if length > request.maxLength { return .failed(.tooLong(request.maxLength)) }
            guard input.count - head.bodyStart >= length else { return .incomplete }
            let body = Array(input[head.bodyStart..<head.bodyStart + length])
            return .complete(Response(status: head.status, headers: head.headers, body: body), keep: keep)
        }
        // No length: the body runs to the close of the connection.
        guard closed else { return .incomplete }
        return .complete(
            Response(status: head.status, headers: head.headers, body: Array(input[head.bodyStart...])), keep: false)
    }

    /// A chunked body decoded; `nil` while it is incomplete, `.some(nil)` when it is not
    /// chunked as HTTP says.
    private static func dechunk(_ input: [UInt8], from start: Int) -> [UInt8]?? {
        var body: [UInt8] = []
        var at = start
        while true {
            guard let lineEnd = find([13, 10], in: input, from: at) else { return nil }
            let sizeText = String(decoding: input[at..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                return .some(nil)
            }
            at = lineEnd + 2
            if size == 0 {
                // Trailers, up to an empty line.
                guard find([13, 10, 13, 10], in: input, from: at - 2) != nil else { return nil }
                return .some(body)
            }
            guard input.count >= at + size + 2 else { return nil }
            body.append(contentsOf: input[at..<at + size])
            at += size + 2
        }
    }

    /// Where `needle` first occurs in `haystack` at or after `from`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        var i = max(from, 0)
        while i <= haystack.count - needle.count {
            if haystack[i] == needle[0], haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private func fail(_ connection: Connection, _ why: String) {
        finish(connection, .failure(.broken(why)), keep: false)
    }

    /// Ends the connection's request with `result`; keeps the connection for its host or closes it.
    private func finish(_ connection: Connection, _ result: Result<Response, PlainHTTPError>, keep: Bool) {
        guard let request = connection.request else { return }
        connection.request = nil
        busy[connection.fd] = nil
        let outcome = result
        if keep, case .success = outcome {
            idle[connection.key, default: []].append(connection)
        } else {
            discard(connection)
        }
        request.done(outcome)
    }

    private func discard(_ connection: Connection) {
        busy[connection.fd] = nil
        close(connection.fd)
    }

    private func dropIdle(_ fd: Int32) {
        for (key, list) in idle {
            if let i = list.firstIndex(where: { $0.fd == fd }) {
                let connection = list[i]
                idle[key]?.remove(at: i)
                discard(connection)
                return
            }
        }
    }
}
