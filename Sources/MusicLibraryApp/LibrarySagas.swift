import SagaCore
import SagaRuntime

/// The app's sagas: a scripted one that turns each added song into a save, and one written
/// in Swift that keeps each album's song count.
public enum LibrarySagas {
    /// The scripted saga, bundled as a string so the app needs no resource files.
    ///
    /// It declares the app's functions it calls, so `sagarun check` and golden tests take it
    /// on its own.
    public static let source = """
        extern func catalog.normalizeTitle(title)
        extern func catalog.songID(title, album)

        // Normalizes each added song and asks the songs' controller to save it.
        saga addSongs {
          every "addSong" as a {
            let title = call catalog.normalizeTitle(a.title)
            let album = call catalog.normalizeTitle(a.album)
            let id = call catalog.songID(title, album)
            put "songs/save" { element: { id: id, title: title, album: album, year: a.year } }
          }
        }
        """

    /// The album saga: after each saved song, saves its album with the number of songs the
    /// library has on it and the year of the earliest.
    public static let keepAlbums: @Sendable (AppSaga<AppState, AppAction>) async throws -> Void = { saga in
        while true {
            guard case .songs(.saved(let song)) = try await saga.take("songs/saved") else { continue }
            let songs = try await saga.select(\.songsByID).values.filter { $0.album == song.album }
            let album = Album(
                id: Catalog.albumID(title: song.album), title: song.album,
                year: songs.map(\.year).min() ?? song.year, songCount: songs.count)
            try await saga.put(.albums(.save(album)))
        }
    }
}
