import SagaCore

extension HostFunctions {
    /// Registers a host function with no arguments and a `Codable` result.
    ///
    /// The types are `SendableMetatype` because the function is called off the caller's
    /// isolation; any type that is not isolated to an actor is.
    ///
    /// ```swift
    /// host.register("clock.today") { () async throws -> String in "2026-11-21" }
    /// ```
    public mutating func register<R: Encodable & SendableMetatype>(
        _ name: String, _ function: @escaping @Sendable () async throws -> R
    ) {
        register(name) { (args: [Value]) async throws -> Value in
            try HostFunctions.expect(args, 0, name)
            return try HostFunctions.result(try await HostFunctions.calling(name) { try await function() }, name)
        }
    }

    /// Registers a host function of one `Decodable` argument and a `Codable` result.
    ///
    /// ```swift
    /// host.register("api.fetchUser") { (id: Int) async throws -> User in try await api.user(id) }
    /// ```
    /// A saga that calls it with the wrong number or kind of arguments gets a `HostError`
    /// naming the function (`api.fetchUser: argument 1: expected Int, got "x"`), at its line.
    public mutating func register<A: Decodable & SendableMetatype, R: Encodable & SendableMetatype>(
        _ name: String, _ function: @escaping @Sendable (A) async throws -> R
    ) {
        register(name) { (args: [Value]) async throws -> Value in
            try HostFunctions.expect(args, 1, name)
            let a: A = try HostFunctions.argument(args, 0, name)
            return try HostFunctions.result(try await HostFunctions.calling(name) { try await function(a) }, name)
        }
    }

    /// Registers a host function of two `Decodable` arguments and a `Codable` result.
    public mutating func register<
        A: Decodable & SendableMetatype, B: Decodable & SendableMetatype, R: Encodable & SendableMetatype
    >(
        _ name: String, _ function: @escaping @Sendable (A, B) async throws -> R
    ) {
        register(name) { (args: [Value]) async throws -> Value in
            try HostFunctions.expect(args, 2, name)
            let a: A = try HostFunctions.argument(args, 0, name)
            let b: B = try HostFunctions.argument(args, 1, name)
            return try HostFunctions.result(try await HostFunctions.calling(name) { try await function(a, b) }, name)
        }
    }

    /// Registers a host function of three `Decodable` arguments and a `Codable` result.
    ///
    /// For more, take one `Decodable` record (`call api.add({title: t, album: a, year: y,
    /// …})`).
    public mutating func register<
        A: Decodable & SendableMetatype, B: Decodable & SendableMetatype, C: Decodable & SendableMetatype,
        R: Encodable & SendableMetatype
    >(
        _ name: String, _ function: @escaping @Sendable (A, B, C) async throws -> R
    ) {
        register(name) { (args: [Value]) async throws -> Value in
            try HostFunctions.expect(args, 3, name)
            let a: A = try HostFunctions.argument(args, 0, name)
            let b: B = try HostFunctions.argument(args, 1, name)
            let c: C = try HostFunctions.argument(args, 2, name)
            return try HostFunctions.result(try await HostFunctions.calling(name) { try await function(a, b, c) }, name)
        }
    }

    private static func expect(_ args: [Value], _ count: Int, _ name: String) throws(SagaError) {
        guard args.count == count else {
            throw SagaError(
                kind: "HostError",
                message:
                    "\(name) takes \(count) argument\(count == 1 ? "" : "s") but \(args.count) \(args.count == 1 ? "was" : "were") given"
            )
        }
    }

    private static func argument<T: Decodable>(_ args: [Value], _ index: Int, _ name: String) throws(SagaError) -> T {
        do {
            return try args[index].decode(as: T.self)
        } catch {
            throw SagaError(
                kind: "HostError",
                message: "\(name): argument \(index + 1): expected \(T.self), got \(args[index].canonicalJSON)")
        }
    }

    private static func result<R: Encodable>(_ value: R, _ name: String) throws(SagaError) -> Value {
        do {
            return try Value(encoding: value)
        } catch {
            throw SagaError(kind: "HostError", message: "\(name): cannot encode its result: \(error.message)")
        }
    }

    /// Runs the function; an error it throws becomes a `HostError` naming it (a `SagaError`
    /// it throws passes through as is).
    private static func calling<R>(_ name: String, _ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let error as SagaError {
            throw error
        } catch {
            throw SagaError(kind: "HostError", message: "\(name) failed: \(error)")
        }
    }
}
