import SagaPersistence

/// A song of the library, kept in the `songs` collection of the store folder.
///
/// Its id is derived from its album and title (``Catalog/songID(title:album:)``), so adding
/// the same song twice replaces it instead of counting it twice.
public struct Song: Persistable, Equatable, Hashable {
    public static let entityName = "songs"

    public var id: String
    public var title: String
    /// The title of the album the song is on.
    public var album: String
    public var year: Int

    /// A song.
    public init(id: String, title: String, album: String, year: Int) {
        self.id = id
        self.title = title
        self.album = album
        self.year = year
    }
}
