import SagaPersistence

/// The controller of the library's songs.
public typealias Songs = FileStoreController<Song>
/// The controller of the library's albums.
public typealias Albums = FileStoreController<Album>

/// Everything that happens in the app: the user's requests and the two persistence
/// controllers' actions, wrapped so that one store carries them all.
public enum AppAction: Sendable {
    /// The user adds a song; the `addSongs` saga normalizes it and saves it.
    case addSong(title: String, album: String, year: Int)
    /// A request to, or a result of, the songs' controller.
    case songs(Songs.Action)
    /// A request to, or a result of, the albums' controller.
    case albums(Albums.Action)
}
