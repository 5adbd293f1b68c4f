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
    /// error. A body that is not a string goes out as JSON; a response whose content type is
    /// JSON (or any response, with `json: true`) comes back decoded. Header names come back in
    /// lower case. A request that cannot be made (a host that refuses, a name that does not
    /// resolve) fails with an `HttpError`, one that takes longer than `timeout` milliseconds
    /// with a `Timeout`. Cancelling the calling task aborts the request.
    static func registerHTTP(_ host: inout HostFunctions, _ context: Context) {
        let session = URLSession(configuration: .ephemeral)
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
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let ms = try timeout(options, function) { request.timeoutInterval = Double(max(ms, 1)) / 1000 }
        switch options["headers"] {
        case nil, .null?: break
        case .record(let headers)?:
            for entry in headers {
                guard case .string(let value) = entry.value else {
                    throw failure("TypeError", function, "header values must be strings, got \(entry.value.kindName)")
                }
                request.setValue(value, forHTTPHeaderField: entry.key)
            }
        case let other?: throw failure("TypeError", function, "headers must be a record, got \(other.kindName)")
        }
        switch body {
        case .null: break
        case .string(let s): request.httpBody = Data(s.utf8)
        default:
            request.httpBody = Data(body.canonicalJSON.utf8)
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        }
        let (data, response) = try await perform(request, session, function)
        let text = try HostLibrary.text(data, context, function, "the response")
        var headers = Record()
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = .string(value) }
        }
        let contentType = (response.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased()
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
        return ["status": .int(response.statusCode), "headers": .record(headers), "body": decoded]
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
