import SagaPersistence

extension AppState {
    /// The app's reducer: the controllers' reducers for their actions, plus the library's
    /// own bookkeeping.
    ///
    /// An added song is in flight until its album is saved (each saved song makes the album
    /// saga save one album) or until saving it fails.
    public mutating func reduce(_ action: AppAction) {
        switch action {
        case .addSong:
            inFlight += 1
        case .songs(let action):
            Songs.makeReducer()(&songs, action)
            switch action {
            case .saved(let song):
                songsByID[song.id] = song
            case .received(let loaded):
                for song in loaded where songsByID[song.id] == nil { songsByID[song.id] = song }
            case .saveFailed(let error, let song):
                inFlight -= 1
                failures.append("cannot save \(song.title): \(error)")
            default:
                break
            }
        case .albums(let action):
            Albums.makeReducer()(&albums, action)
            switch action {
            case .saved(let album):
                albumsByID[album.id] = album
                inFlight -= 1
            case .received(let loaded):
                for album in loaded where albumsByID[album.id] == nil { albumsByID[album.id] = album }
            case .saveFailed(let error, let album):
                inFlight -= 1
                failures.append("cannot save album \(album.title): \(error)")
            default:
                break
            }
        }
    }
}
