import SagaPersistence

extension PersistenceState.RequestState {
    /// Whether the request has an answer: received, failed or canceled.
    var isSettled: Bool {
        switch self {
        case .received, .failed, .canceled: true
        case .initial, .loading: false
        }
    }
}
