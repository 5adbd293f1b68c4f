import SagaPersistence
import SagaStore

/// The controller of the library's songs.
public typealias Songs = FileStoreController<Song>
/// The controller of the library's albums.
public typealias Albums = FileStoreController<Album>

/// Everything that happens in the app: the user's requests and the two persistence
/// controllers' actions, wrapped so that one store carries them all.
///
/// Sagas see them through a `CodableBridge`: `.addSong(…)` is `{type: "addSong", title, album,
/// year}`, `.songs(.saved(song))` is `{type: "songs/saved", element: song}`.
public enum AppAction: Codable, Sendable {
    /// The user adds a song; the `addSongs` saga normalizes it and saves it.
    case addSong(title: String, album: String, year: Int)
    /// A request to, or a result of, the songs' controller.
    case songs(Songs.Action)
    /// A request to, or a result of, the albums' controller.
    case albums(Albums.Action)
}

extension ActionPath where Root == AppAction, Value == Songs.Action {
    /// The songs' controller's actions in the app's.
    public static let songs = ActionPath(embed: AppAction.songs) { if case .songs(let a) = $0 { a } else { nil } }
}

extension ActionPath where Root == AppAction, Value == Albums.Action {
    /// The albums' controller's actions in the app's.
    public static let albums = ActionPath(embed: AppAction.albums) { if case .albums(let a) = $0 { a } else { nil } }
}
