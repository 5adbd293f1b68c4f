import Foundation
import SagaCore
import SagaRuntime
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HostLibrary {
    /// `http.request({method, url, headers, body, timeout, json})`, `http.get(url, {…})` and
    /// `http.post(url, body, {…})`.
    ///
    /// Each gives `{status, headers, body}`: a status that is not 2xx is a value, not an
    /// error, and so is a redirect, which is not followed. A body that is not a string goes
    /// out as JSON; a response whose content type is JSON (or any response, with
    /// `json: true`) comes back decoded. `http://` goes through ``PlainHTTPClient``, `https://`
    /// through `URLSession`. Header names come back in
    /// lower case. A request that cannot be made (a host that refuses, a name that does not
    /// resolve) fails with an `HttpError`, one that takes longer than `timeout` milliseconds
    /// with a `Timeout`. Cancelling the calling task aborts the request.
    static func registerHTTP(_ host: inout HostFunctions, _ context: Context) {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        host.register("http.request") { args in
            try expect(args, 1, 1, "http.request")
            guard case .record(let request) = args[0] else {
                throw failure("TypeError", "http.request", "takes a record {method, url, headers, body, timeout}")
            }
            guard case .string(let url)? = request["url"] else {
                throw failure("TypeError", "http.request", "the request needs a string url")
            }
            var method = "GET"
            switch request["method"] {
            case nil, .null?: break
            case .string(let m)?: method = m.uppercased()
            case let other?:
                throw failure("TypeError", "http.request", "method must be a string, got \(other.kindName)")
            }
            return try await send(
                method, url, body: request["body"] ?? .null, request, session, context, "http.request")
        }
        host.register("http.get") { args in
            try expect(args, 1, 2, "http.get")
            let url = try string(args, 0, "http.get", "the url")
            return try await send(
                "GET", url, body: .null, try options(args, 1, "http.get"), session, context, "http.get")
        }
        host.register("http.post") { args in
            try expect(args, 2, 3, "http.post")
            let url = try string(args, 0, "http.post", "the url")
            return try await send(
                "POST", url, body: args[1], try options(args, 2, "http.post"), session, context, "http.post")
        }
    }

    /// Makes one request and gives `{status, headers, body}`.
    private static func send(
        _ method: String, _ address: String, body: Value, _ options: Record, _ session: URLSession, _ context: Context,
        _ function: String
    ) async throws(SagaError) -> Value {
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw failure("HttpError", function, "'\(address)' is not an http or https URL")
        }
        guard context.permissions.allowsNet(host: host, port: url.port) else {
            let value = url.port.map { "\(host):\($0)" } ?? host
            throw denied("a request to '\(value)'", flag: "--allow-net", value: value)
        }
        let timeout = try timeout(options, function) ?? 60_000
        var headers = try strings(options, "headers", function)
        var payload: Data?
        switch body {
        case .null: break
        case .string(let s): payload = Data(s.utf8)
        default:
            payload = Data(body.canonicalJSON.utf8)
            if !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                headers.append(("Content-Type", "application/json"))
            }
        }
        let (status, answered, data): (Int, [(String, String)], Data)
        if scheme == "http" {
            (status, answered, data) = try await sendPlain(
                method, url, host: host, headers, payload, timeout: timeout, context, function)
        } else {
            var request = URLRequest(url: url)
            request.httpMethod = method
            request.timeoutInterval = Double(max(timeout, 1)) / 1000
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            request.httpBody = payload
            let (bytes, response) = try await perform(request, session, function)
            var names: [(String, String)] = []
            for (key, value) in response.allHeaderFields {
                if let key = key as? String, let value = value as? String { names.append((key.lowercased(), value)) }
            }
            (status, answered, data) = (response.statusCode, names, bytes)
        }
        let text = try HostLibrary.text(data, context, function, "the response")
        var record = Record()
        for (name, value) in answered { record[name] = .string(value) }
        let contentType = (answered.first { $0.0 == "content-type" }?.1 ?? "").lowercased()
        let wantsJSON = options["json"] == .bool(true)
        var decoded: Value = .string(text)
        if wantsJSON || contentType.contains("json") {
            do {
                decoded = try JSONReader.parse(text)
            } catch {
                if wantsJSON || !text.isEmpty {
                    throw failure(
                        "HttpError", function, "the response of \(method) \(url) is not JSON: \(error)")
                }
            }
        }
        return ["status": .int(status), "headers": .record(record), "body": decoded]
    }

    /// Sends an `http://` request with ``PlainHTTPClient``, aborting it when the calling task
    /// is cancelled; gives the status, the headers (names in lower case) and the body.
    private static func sendPlain(
        _ method: String, _ url: URL, host: String, _ headers: [(String, String)], _ body: Data?, timeout: Int,
        _ context: Context, _ function: String
    ) async throws(SagaError) -> (Int, [(String, String)], Data) {
        let port = url.port ?? 80
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(url.port.map { "\(host):\($0)" } ?? host)\r\n"
        head += "User-Agent: sagarun\r\nAccept: */*\r\n"
        for (name, value) in headers where !name.contains(where: \.isNewline) && !value.contains(where: \.isNewline) {
            head += "\(name): \(value)\r\n"
        }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        var bytes = Array((head + "\r\n").utf8)
        if let body { bytes.append(contentsOf: body) }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(timeout, 1)) * 1_000_000
        let id = Mutex<Int?>(nil)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (
                    continuation: CheckedContinuation<
                        Result<PlainHTTPClient.Response, PlainHTTPClient.PlainHTTPError>, Never
                    >
                )
                in
                let request = PlainHTTPClient.Request(
                    host: host, port: port, bytes: bytes, isHead: method == "HEAD", deadline: deadline,
                    maxLength: context.maxLength
                ) { continuation.resume(returning: $0) }
                let sent = PlainHTTPClient.shared.send(request)
                let cancelled = id.withLock { stored -> Bool in
                    defer { stored = sent }
                    return stored == -1
                }
                if cancelled || Task.isCancelled { PlainHTTPClient.shared.cancel(sent) }
            }
        } onCancel: {
            let sent = id.withLock { stored -> Int? in
                defer { if stored == nil { stored = -1 } }
                return stored
            }
            if let sent, sent > 0 { PlainHTTPClient.shared.cancel(sent) }
        }
        switch result {
        case .success(let response):
            return (response.status, response.headers, Data(response.body))
        case .failure(.timedOut):
            throw failure("Timeout", function, "\(url) did not answer within \(timeout) ms")
        case .failure(.cancelled):
            throw failure("HttpError", function, "the request to \(url) was cancelled")
        case .failure(.tooLong(let limit)):
            throw failure("RangeError", function, "the response of \(url) is longer than --max-length \(limit)")
        case .failure(.connect(let why)), .failure(.broken(let why)):
            throw failure("HttpError", function, "\(url): \(why)")
        }
    }

    /// Runs `request`, aborting it when the calling task is cancelled.
    private static func perform(
        _ request: URLRequest, _ session: URLSession, _ function: String
    ) async throws(SagaError) -> (Data, HTTPURLResponse) {
        let box = Mutex<URLSessionDataTask?>(nil)
        let result: Result<(Data, URLResponse), any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(returning: .failure(error))
                    } else if let response {
                        continuation.resume(returning: .success((data ?? Data(), response)))
                    } else {
                        continuation.resume(returning: .failure(URLError(.badServerResponse)))
                    }
                }
                box.withLock { $0 = task }
                task.resume()
                if Task.isCancelled { task.cancel() }
            }
        } onCancel: {
            box.withLock { $0?.cancel() }
        }
        switch result {
        case .success(let (data, response)):
            guard let http = response as? HTTPURLResponse else {
                throw failure("HttpError", function, "\(request.url?.absoluteString ?? "") gave no HTTP response")
            }
            return (data, http)
        case .failure(let error):
            let url = request.url?.absoluteString ?? ""
            if let error = error as? URLError {
                switch error.code {
                case .timedOut: throw failure("Timeout", function, "\(url) did not answer in time")
                case .cancelled: throw failure("HttpError", function, "the request to \(url) was cancelled")
                default: break
                }
            }
            throw failure("HttpError", function, "\(url): \(error.localizedDescription)")
        }
    }
}

/// Keeps `URLSession` from following redirects, so that an `https://` request gives a 3xx as
/// it is, as an `http://` one does.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
