import SagaCore
import SagaRuntime

/// The app's sagas: a scripted one that turns each added song into a save, and one written
/// in Swift that keeps each album's song count.
public enum LibrarySagas {
    /// The scripted saga, bundled as a string so the app needs no resource files.
    ///
    /// The user's actions reach the store directly, not at the interpreter's turn, so a burst
    /// of them can arrive while the saga is busy: an `actionChannel` queues every one (a plain
    /// `take`, or `every`, would miss those that arrive before it waits again).
    public static let source = """
        // Normalizes each added song and asks the persistence middleware to save it.
        saga addSongs {
          let added = actionChannel "library/addSong"
          loop {
            let a = take added
            let title = call catalog.normalizeTitle(a.title)
            let album = call catalog.normalizeTitle(a.album)
            let id = call catalog.songID(title, album)
            put "song/save" { song: { id: id, title: title, album: album, year: a.year } }
          }
        }
        """

    /// The album saga: after each saved song, saves its album with the number of songs the
    /// library has on it and the year of the earliest.
    ///
    /// It counts from the state (`select`), not with an asynchronous call: between its
    /// `take`s it never waits on anything but the scheduler, so it sees every `song/saved`.
    public static let keepAlbums: NativeSaga = { saga in
        while true {
            let saved = try await saga.take("song/saved")
            let song = try saved["song"].decode(as: Song.self)
            let songs = try await saga.select()["songs"].decode(as: [Song].self).filter { $0.album == song.album }
            let album = Album(
                id: Catalog.albumID(title: song.album), title: song.album,
                year: songs.map(\.year).min() ?? song.year, songCount: songs.count)
            try await saga.put("album/save", ["album": try Value(encoding: album)])
        }
    }
}
