/// What the persistence reducer keeps for one kind of element: the state of the current
/// request, of saving and of deleting.
///
/// ```swift
/// if case .received(let songs) = state.songs.request { show(songs) }
/// state.songs.request == .received([song])   // when the element type is Equatable
/// ```
public struct PersistenceState<Element, PersistenceError: Error, Request> {
    /// Where the current request stands.
    public enum RequestState {
        case initial
        case loading
        case failed(error: PersistenceError, request: Request)
        case received([Element])
        case canceled
    }

    /// Where saving (or deleting) stands.
    public enum ProcessState {
        case initial
        case processing
        case failed(error: PersistenceError, element: Element)
        case succeeded
    }

    public var request: RequestState
    public var persist: ProcessState
    public var delete: ProcessState

    /// A state with nothing requested, saved or deleted yet.
    public init(request: RequestState = .initial, persist: ProcessState = .initial, delete: ProcessState = .initial) {
        self.request = request
        self.persist = persist
        self.delete = delete
    }
}

extension PersistenceState: Codable where Element: Codable, PersistenceError: Codable, Request: Codable {}
extension PersistenceState: Sendable where Element: Sendable, PersistenceError: Sendable, Request: Sendable {}
extension PersistenceState.RequestState: Sendable
where Element: Sendable, PersistenceError: Sendable, Request: Sendable {}
extension PersistenceState.ProcessState: Sendable where Element: Sendable, PersistenceError: Sendable {}
extension PersistenceState: Equatable where Element: Equatable, PersistenceError: Equatable, Request: Equatable {}
extension PersistenceState.RequestState: Equatable
where Element: Equatable, PersistenceError: Equatable, Request: Equatable {}
extension PersistenceState.ProcessState: Equatable where Element: Equatable, PersistenceError: Equatable {}

extension PersistenceState {
    /// Applies a persistence action: the reducer that ``PersistenceController/makeReducer()`` returns.
    public mutating func reduce(_ action: PersistenceAction<Element, PersistenceError, Request>) {
        switch action {
        case .save: persist = .processing
        case .saved: persist = .succeeded
        case .saveFailed(let error, let element): persist = .failed(error: error, element: element)
        case .delete: delete = .processing
        case .deleted: delete = .succeeded
        case .deleteFailed(let error, let element): delete = .failed(error: error, element: element)
        case .request: request = .loading
        case .received(let elements): request = .received(elements)
        case .requestFailed(let error, let r): request = .failed(error: error, request: r)
        case .cancelRequest: break
        case .canceled: request = .canceled
        }
    }
}
