/// A command line of `MusicLibrary`: the store folder and what to do.
struct Command {
    /// What the user asked for.
    enum Verb {
        case add(title: String, album: String, year: Int)
        case list
        case album(String)
    }

    static let usage = """
        usage: MusicLibrary [--store DIR] add TITLE ALBUM YEAR
               MusicLibrary [--store DIR] list
               MusicLibrary [--store DIR] album TITLE
        """

    var directory = "MusicLibrary.store"
    var verb: Verb

    /// Parses the arguments (without the program's name); `nil` when they make no sense.
    init?(_ arguments: [String]) {
        var rest = arguments[...]
        if rest.first == "--store" {
            guard rest.count >= 2 else { return nil }
            directory = rest[rest.startIndex + 1]
            rest = rest.dropFirst(2)
        }
        switch (rest.first, rest.count) {
        case ("add", 4):
            let a = Array(rest)
            guard let year = Int(a[3]) else { return nil }
            verb = .add(title: a[1], album: a[2], year: year)
        case ("list", 1):
            verb = .list
        case ("album", 2):
            verb = .album(rest[rest.startIndex + 1])
        default:
            return nil
        }
    }
}
