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

    /// Starts a save and calls `completion` once, from any thread, when it is durable or has
    /// failed: what the middleware calls, in dispatch order.
    ///
    /// Saves and deletes started one after another on one thread must reach the storage in
    /// that order, so that the last save of an element is the one kept.
    /// ``FileStoreController`` does so without waiting for the writes before. The default
    /// implementation waits for the save or delete started before it to finish, then
    /// awaits ``save(_:)``: in order, one at a time.
    func save(_ element: Element, completion: @escaping @Sendable (Result<Element, PersistenceError>) -> Void)

    /// Starts a delete and calls `completion` once, from any thread, when it is durable or has
    /// failed; in order with the saves, as ``save(_:completion:)``.
    func delete(_ element: Element, completion: @escaping @Sendable (Result<Void, PersistenceError>) -> Void)
}

extension PersistenceController {
    /// The action type of this controller.
    public typealias Action = PersistenceAction<Element, PersistenceError, Request>
    /// The state type of this controller.
    public typealias State = PersistenceState<Element, PersistenceError, Request>

    /// Runs ``save(_:)`` once the write started before it has finished (see the requirement).
    public func save(_ element: Element, completion: @escaping @Sendable (Result<Element, PersistenceError>) -> Void) {
        WriteChain.shared.append(for: self) {
            do throws(PersistenceError) {
                completion(.success(try await self.save(element)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Runs ``delete(_:)`` once the write started before it has finished (see the requirement).
    public func delete(_ element: Element, completion: @escaping @Sendable (Result<Void, PersistenceError>) -> Void) {
        WriteChain.shared.append(for: self) {
            do throws(PersistenceError) {
                try await self.delete(element)
                completion(.success(()))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// The reducer of this controller's ``PersistenceState``.
    ///
    /// `@Sendable`: it captures nothing, so it may be kept in a global constant.
    public static func makeReducer() -> @Sendable (inout State, Action) -> Void {
        { state, action in state.reduce(action) }
    }

    /// The middleware: performs `save`, `delete`, `request` and `cancelRequest` through this
    /// controller, and dispatches the results into the store it is installed in (on the
    /// store's actor, through its `StoreDispatcher`).
    ///
    /// ```swift
    /// let songs = FileStoreController<Song>(container)
    /// let store = Store(initialState: Songs.State(), reducer: Songs.makeReducer(),
    ///                   middleware: [songs.makeMiddleware()])
    /// store.dispatch(.save(song))        // later: .saved(song), or .saveFailed(error:element:)
    /// ```
    ///
    /// Saves and deletes reach the storage in dispatch order, and their results come back in
    /// the order they finish. A new request replaces the previous one, whose live updates stop.
    public func makeMiddleware<StoreState>() -> Middleware<StoreState, Action> where Action: Sendable {
        makeMiddleware { api in
            let send = api.dispatcher
            return { actions in for action in actions { send(action) } }
        }
    }

    /// The middleware in an app's store, whose actions wrap this controller's along `action`:
    /// it performs the wrapped requests, and its results come back wrapped, into that store.
    ///
    /// ```swift
    /// let songsPath = ActionPath<AppAction, Songs.Action>(embed: AppAction.songs) {
    ///     if case .songs(let action) = $0 { action } else { nil }
    /// }
    /// let store = Store(
    ///     initialState: AppState(),
    ///     reducer: Songs.makeReducer(state: \.songs, action: songsPath),
    ///     middleware: [songs.makeMiddleware(action: songsPath)])
    /// ```
    public func makeMiddleware<AppState, AppAction>(
        action: ActionPath<AppAction, Action>
    ) -> Middleware<
        AppState, AppAction
    > where Action: Sendable {
        let middleware: Middleware<AppState, Action> = makeMiddleware()
        return middleware.lifted(state: { $0 }, action: action)
    }

    /// The reducer of this controller's state, at `state` in an app's state, for the actions
    /// `action` finds in the app's.
    ///
    /// `@Sendable`, as ``makeReducer()`` is: a key path literal such as `\.songs` is
    /// `Sendable`.
    public static func makeReducer<AppState, AppAction>(
        state: WritableKeyPath<AppState, State> & Sendable, action: ActionPath<AppAction, Action>
    ) -> @Sendable (inout AppState, AppAction) -> Void {
        let extract = action.extract
        return { global, appAction in
            if let local = extract(appAction) { global[keyPath: state].reduce(local) }
        }
    }

    /// The middleware, with its results dispatched through `scheduler`, which decides on which
    /// thread and when they reach the store: the interpreter's `asyncWork`, say, which counts
    /// the work as in flight on a virtual clock.
    public func makeMiddleware<StoreState>(scheduler: some AsyncWorkScheduler<Action>) -> Middleware<StoreState, Action>
    where Action: Sendable {
        let requests = RequestTasks()
        return Middleware { _, next in
            { [self] action in
                next(action)
                switch action {
                case .save(let element):
                    scheduler.schedule(reporting: { finish in
                        self.save(element) { result in
                            switch result {
                            case .success(let saved): finish([.saved(saved)])
                            case .failure(let error): finish([.saveFailed(error: error, element: element)])
                            }
                        }
                    })
                case .delete(let element):
                    scheduler.schedule(reporting: { finish in
                        self.delete(element) { result in
                            switch result {
                            case .success: finish([.deleted(element)])
                            case .failure(let error): finish([.deleteFailed(error: error, element: element)])
                            }
                        }
                    })
                case .request(let r):
                    requests.replace(feed(r) { action in scheduler.schedule { [action] } })
                case .cancelRequest:
                    requests.replace(nil)
                    scheduler.schedule { [.canceled] }
                default:
                    break
                }
            }
        }
    }

    /// The middleware, with its results handed to the function `deliver` makes from the
    /// store's API (once, as the store builds its chain).
    private func makeMiddleware<StoreState>(
        deliver makeDeliver: @escaping (MiddlewareAPI<StoreState, Action>) -> @Sendable ([Action]) -> Void
    ) -> Middleware<StoreState, Action> where Action: Sendable {
        let requests = RequestTasks()
        return Middleware { api, next in
            let deliver = makeDeliver(api)
            return { [self] action in
                next(action)
                switch action {
                case .save(let element):
                    self.save(element) { result in
                        switch result {
                        case .success(let saved): deliver([.saved(saved)])
                        case .failure(let error): deliver([.saveFailed(error: error, element: element)])
                        }
                    }
                case .delete(let element):
                    self.delete(element) { result in
                        switch result {
                        case .success: deliver([.deleted(element)])
                        case .failure(let error): deliver([.deleteFailed(error: error, element: element)])
                        }
                    }
                case .request(let r):
                    requests.replace(feed(r) { action in deliver([action]) })
                case .cancelRequest:
                    requests.replace(nil)
                    deliver([.canceled])
                default:
                    break
                }
            }
        }
    }

    /// The task that turns a request's results into actions, handed to `deliver` in order.
    private func feed(_ r: Request, _ deliver: @escaping @Sendable (Action) -> Void) -> Task<Void, Never>
    where Action: Sendable {
        let stream = request(r)
        return Task {
            for await result in stream {
                if Task.isCancelled { return }
                switch result {
                case .success(let elements): deliver(.received(elements))
                case .failure(let error): deliver(.requestFailed(error: error, request: r))
                }
            }
        }
    }
}
