import SagaPersistence

/// An album of the library, kept in the `albums` collection: the album saga saves it again
/// after each saved song, with the number of songs the library has on it.
public struct Album: Persistable, Equatable, Hashable {
    public static let entityName = "albums"

    public var id: String
    public var title: String
    /// The year of its earliest song.
    public var year: Int
    public var songCount: Int

    /// An album.
    public init(id: String, title: String, year: Int, songCount: Int) {
        self.id = id
        self.title = title
        self.year = year
        self.songCount = songCount
    }
}
