import SagaPersistence

/// The app's state: the two controllers' ``PersistenceState``s, the library as far as this
/// run has seen it, and the number of added songs still on their way to the store.
public struct AppState: Codable, Sendable {
    /// Where the songs' live request, saves and deletions stand.
    public var songs = Songs.State()
    /// Where the albums' live request, saves and deletions stand.
    public var albums = Albums.State()
    /// Every song loaded or saved, by id.
    public var songsByID: [String: Song] = [:]
    /// Every album loaded or saved, by id.
    public var albumsByID: [String: Album] = [:]
    /// Songs added whose album is not saved yet: 0 when the library is settled.
    public var inFlight = 0
    /// What failed, for the user.
    public var failures: [String] = []

    /// An empty state.
    public init() {}
}
