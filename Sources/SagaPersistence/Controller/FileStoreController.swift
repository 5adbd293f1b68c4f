import SagaCore

/// A ``PersistenceController`` over a ``FileStoreContainer``: elements of one `Persistable`
/// type, kept durably, queried with ``StoreRequest``.
///
/// ```swift
/// let songs = FileStoreController<Song>(container)
/// let middleware: Middleware<AppState, FileStoreController<Song>.Action> = songs.makeMiddleware(scheduler: scheduler)
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
        let value = try ValueCoding.encode(element)
        let stored = try await container.store().save(entity: Element.entityName, element: value)
        container.changed(Element.entityName)
        return try ValueCoding.decode(stored)
    }

    public func delete(_ element: Element) async throws(StoreError) {
        let id = try ValueCoding.encode(element.id)
        _ = try await container.store().delete(entity: Element.entityName, id: id)
        container.changed(Element.entityName)
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
