import Foundation
import MusicLibraryApp
import Testing

/// The whole app in a temporary folder: songs go in through the sagas, albums keep their
/// counts, and a second run on the same folder finds everything again.
@MainActor @Suite(.timeLimit(.minutes(5))) struct MusicLibraryTests {
    func withFolder(_ body: (String) async throws -> Void) async rethrows {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await body(folder)
    }

    @Test func addedSongsAreNormalizedSavedCountedAndReopened() async throws {
        try await withFolder { folder in
            let app = try await LibraryApp.open(directory: folder)
            #expect(app.songs.isEmpty)
            app.add(title: "  so what ", album: "kind of blue", year: 1959)
            app.add(title: "blue in green", album: "Kind Of Blue", year: 1959)
            app.add(title: "Giant Steps", album: "giant steps", year: 1960)
            app.add(title: "so what", album: "Kind of Blue", year: 1959)  // the same song again
            await app.settled()

            let expectedSongs = [
                Song(id: "giant-steps/giant-steps", title: "Giant Steps", album: "Giant Steps", year: 1960),
                Song(id: "kind-of-blue/blue-in-green", title: "Blue in Green", album: "Kind of Blue", year: 1959),
                Song(id: "kind-of-blue/so-what", title: "So What", album: "Kind of Blue", year: 1959),
            ]
            let expectedAlbums = [
                Album(id: "giant-steps", title: "Giant Steps", year: 1960, songCount: 1),
                Album(id: "kind-of-blue", title: "Kind of Blue", year: 1959, songCount: 2),
            ]
            #expect(app.songs == expectedSongs)
            #expect(app.albums == expectedAlbums)
            #expect(app.album(titled: "KIND OF BLUE")?.songs.map(\.title) == ["Blue in Green", "So What"])
            #expect(app.store.state.failures.isEmpty)
            // The live requests catch up with the saves.
            await app.waitUntil { state in
                state.songs.request == .received(expectedSongs.sorted { ($0.album, $0.title) < ($1.album, $1.title) })
                    && state.albums.request == .received(expectedAlbums)
            }
            #expect(await app.close() == .success)
            #expect(app.output.errors.isEmpty)

            let reopened = try await LibraryApp.open(directory: folder)
            #expect(reopened.songs == expectedSongs)
            #expect(reopened.albums == expectedAlbums)
            reopened.add(title: "flamenco sketches", album: "kind of blue", year: 1959)
            await reopened.settled()
            #expect(reopened.album(titled: "Kind of Blue")?.album.songCount == 3)
            #expect(await reopened.close() == .success)
        }
    }

    @Test func aSecondAppOnAnOpenFolderIsRefused() async throws {
        try await withFolder { folder in
            let app = try await LibraryApp.open(directory: folder)
            await #expect(throws: LibraryError.self) { _ = try await LibraryApp.open(directory: folder) }
            await app.close()
        }
    }

    @Test func titlesAreTrimmedAndTitleCased() {
        #expect(Catalog.normalizeTitle("  kind   OF blue ") == "Kind of Blue")
        #expect(Catalog.normalizeTitle("the sound of silence") == "The Sound of Silence")
        #expect(Catalog.normalizeTitle("") == "")
        #expect(Catalog.songID(title: "so what", album: "Kind of Blue") == "kind-of-blue/so-what")
    }
}
