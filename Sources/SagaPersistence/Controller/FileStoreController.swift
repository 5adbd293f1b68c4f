import SagaCore

/// A ``PersistenceController`` over a ``FileStoreContainer``: elements of one `Persistable`
/// type, kept durably, queried with ``StoreRequest``.
///
/// ```swift
/// let songs = FileStoreController<Song>(container)
/// let store = Store(initialState: FileStoreController<Song>.State(),
///                   reducer: FileStoreController<Song>.makeReducer(),
///                   middleware: [songs.makeMiddleware()])
/// ```
public final class FileStoreController<Element: Persistable>: PersistenceController {
    public typealias PersistenceError = StoreError
    public typealias Request = StoreRequest<Element>

    private let container: FileStoreContainer

    /// A controller of `Element`s in `container`.
    public init(_ container: FileStoreContainer) {
        self.container = container
    }

    public func save(_ element: Element) async throws(StoreError) -> Element {
        let result = await withCheckedContinuation { (c: CheckedContinuation<Result<Element, StoreError>, Never>) in
            save(element) { c.resume(returning: $0) }
        }
        return try result.get()
    }

    public func delete(_ element: Element) async throws(StoreError) {
        let result = await withCheckedContinuation { (c: CheckedContinuation<Result<Void, StoreError>, Never>) in
            delete(element) { c.resume(returning: $0) }
        }
        try result.get()
    }

    /// Encodes the element on the calling thread and queues its write behind every write
    /// started before (see ``FileStoreContainer``): saves and deletes reach the file store in
    /// the order of the calls, and are synced together.
    public func save(_ element: Element, completion: @escaping @Sendable (Result<Element, StoreError>) -> Void) {
        write(element, completion) { store, value, done in
            store.save(entity: Element.entityName, element: value) { result in
                done(result.flatMap { stored in Result { () throws(StoreError) in try ValueCoding.decode(stored) } })
            }
        }
    }

    /// Queues the deletion behind every write started before, as ``save(_:completion:)``.
    public func delete(_ element: Element, completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        write(element.id, completion) { store, id, done in
            store.delete(entity: Element.entityName, id: id) { result in done(result.map { _ in () }) }
        }
    }

    /// Encodes `value`, then starts `start` with the open store, in order with every write
    /// before; its outcome reaches `completion` after the live requests are told of the change.
    private func write<Input: Encodable, Output>(
        _ value: Input, _ completion: @escaping @Sendable (Result<Output, StoreError>) -> Void,
        _ start:
            @escaping @Sendable (
                any ElementStore, Value, _ done: @escaping @Sendable (Result<Output, StoreError>) -> Void
            ) -> Void
    ) {
        let encoded: Value
        do throws(StoreError) {
            encoded = try ValueCoding.encode(value)
        } catch {
            return completion(.failure(error))
        }
        let container = self.container
        container.withStore { opened in
            switch opened {
            case .failure(let error):
                completion(.failure(error))
            case .success(let store):
                start(store, encoded) { result in
                    if case .success = result { container.changed(Element.entityName) }
                    completion(result)
                }
            }
        }
    }

    public func request(_ request: StoreRequest<Element>) -> AsyncStream<Result<[Element], StoreError>> {
        let container = self.container
        return AsyncStream { continuation in
            let task = Task {
                let changes = request.live ? container.changes(of: Element.entityName) : nil
                var last: [Value]?
                repeat {
                    do throws(StoreError) {
                        let query = try Query.parse(request.record)
                        let values = try await container.store().query(entity: Element.entityName, query)
                        if values != last {
                            last = values
                            var elements: [Element] = []
                            for v in values { elements.append(try ValueCoding.decode(v)) }
                            continuation.yield(.success(elements))
                        }
                    } catch {
                        continuation.yield(.failure(error))
                        break
                    }
                    guard let changes else { break }
                    var iterator = changes.makeAsyncIterator()
                    guard await iterator.next() != nil, !Task.isCancelled else { break }
                } while true
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
