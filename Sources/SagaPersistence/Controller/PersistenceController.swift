import SagaStore

/// Saves, deletes and requests elements of one kind: what the persistence middleware drives.
/// Conform a type, then name one generic parameter to get the middleware and the reducer:
///
/// ```swift
/// let songs = FileStoreController<Song>(container)
/// let store = Store(
///     initialState: SongsState(),
///     reducer: { state, action in FileStoreController<Song>.makeReducer()(&state, action) },
///     middleware: [songs.makeMiddleware(scheduler: scheduler)])
/// ```
public protocol PersistenceController: AnyObject, Sendable {
    associatedtype Element: Sendable
    associatedtype PersistenceError: Error & Sendable
    associatedtype Request: Sendable

    /// Saves (inserts or replaces) an element; returns it as stored once it is durable.
    func save(_ element: Element) async throws(PersistenceError) -> Element
    /// Deletes an element; returns once the deletion is durable.
    func delete(_ element: Element) async throws(PersistenceError)
    /// The elements a request selects: once, or, for a live request, again after each
    /// change, until the stream's consumer stops (cancelRequest).
    func request(_ request: Request) -> AsyncStream<Result<[Element], PersistenceError>>
}

extension PersistenceController {
    /// The action type of this controller.
    public typealias Action = PersistenceAction<Element, PersistenceError, Request>
    /// The state type of this controller.
    public typealias State = PersistenceState<Element, PersistenceError, Request>

    /// The reducer of this controller's ``PersistenceState``.
    public static func makeReducer() -> (inout State, Action) -> Void {
        { state, action in state.reduce(action) }
    }

    /// The middleware: performs `save`, `delete`, `request` and `cancelRequest` through this
    /// controller, and dispatches the results through `scheduler` (which decides on which
    /// thread, and in what order, they reach the store).
    ///
    /// A new request replaces the previous one, whose live updates stop.
    public func makeMiddleware<StoreState>(scheduler: some AsyncWorkScheduler<Action>) -> Middleware<StoreState, Action>
    where Action: Sendable {
        let requests = RequestTasks()
        return Middleware { _, next in
            { [self] action in
                next(action)
                switch action {
                case .save(let element):
                    scheduler.schedule {
                        do throws(PersistenceError) {
                            return [.saved(try await self.save(element))]
                        } catch {
                            return [.saveFailed(error: error, element: element)]
                        }
                    }
                case .delete(let element):
                    scheduler.schedule {
                        do throws(PersistenceError) {
                            try await self.delete(element)
                            return [.deleted(element)]
                        } catch {
                            return [.deleteFailed(error: error, element: element)]
                        }
                    }
                case .request(let r):
                    let stream = self.request(r)
                    requests.replace(
                        Task {
                            for await result in stream {
                                if Task.isCancelled { return }
                                let action: Action
                                switch result {
                                case .success(let elements): action = .received(elements)
                                case .failure(let error): action = .requestFailed(error: error, request: r)
                                }
                                scheduler.schedule { [action] }
                            }
                        })
                case .cancelRequest:
                    requests.replace(nil)
                    scheduler.schedule { [.canceled] }
                default:
                    break
                }
            }
        }
    }
}
