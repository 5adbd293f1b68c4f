// The command line of the music library example: parses, opens the library, runs one
// command, closes. The app itself is the MusicLibraryApp module.
import MusicLibraryApp

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

guard let command = Command(Array(CommandLine.arguments.dropFirst())) else {
    print(Command.usage)
    exit(64)
}

let app: LibraryApp
do {
    app = try await LibraryApp.open(directory: command.directory)
} catch {
    print("error: \(error)")
    exit(74)
}

switch command.verb {
case .add(let title, let album, let year):
    app.add(title: title, album: album, year: year)
    await app.settled()
    for failure in app.store.state.failures { print("error: \(failure)") }
    if let found = app.album(titled: album)?.album {
        print("\(found.title) (\(found.year)): \(found.songCount) song\(found.songCount == 1 ? "" : "s")")
    }
case .list:
    for song in app.songs { print("\(song.title) — \(song.album) (\(song.year))") }
case .album(let title):
    if let found = app.album(titled: title) {
        let count = found.album.songCount
        print("\(found.album.title) (\(found.album.year)), \(count) song\(count == 1 ? "" : "s"):")
        for song in found.songs { print("  \(song.title)") }
    } else {
        print("no album titled \(title)")
    }
}
let failed = !app.store.state.failures.isEmpty
let status = await app.close()
exit(failed || status != .success ? 1 : 0)
