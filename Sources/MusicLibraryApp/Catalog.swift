import SagaRuntime

/// The app's functions that sagas call (`call catalog.normalizeTitle(t)`), registered with
/// the typed helpers of ``HostFunctions``.
public enum Catalog {
    /// Words that stay in lower case inside a title.
    private static let minorWords: Set<String> = [
        "a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to",
    ]

    /// The host functions of the app's sagas.
    public static var hostFunctions: HostFunctions {
        var host = HostFunctions()
        host.register("catalog.normalizeTitle") { (title: String) async throws -> String in normalizeTitle(title) }
        host.register("catalog.songID") { (title: String, album: String) async throws -> String in
            songID(title: title, album: album)
        }
        return host
    }

    /// Trims a title, collapses its runs of spaces and title-cases it: `"  so  what "` is
    /// `"So What"`, `"kind OF blue"` is `"Kind of Blue"`.
    public static func normalizeTitle(_ title: String) -> String {
        let words = title.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        return words.enumerated().map { index, word in
            if index > 0, minorWords.contains(word) { return word }
            return word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    /// The id of an album: its normalized title, lower-cased, words joined by `-`.
    public static func albumID(title: String) -> String {
        normalizeTitle(title).lowercased().split(separator: " ").joined(separator: "-")
    }

    /// The id of a song: its album's id and its own, so that one title may be on several albums.
    public static func songID(title: String, album: String) -> String {
        albumID(title: album) + "/" + albumID(title: title)
    }
}
