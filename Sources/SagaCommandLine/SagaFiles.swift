import Foundation

/// The `.saga` files a command's arguments name, for `check` and `fmt`: a file as given, and a
/// folder as every `.saga` file under it, in path order, as `sagarun test` reads a folder.
enum SagaFiles {
    /// The files `paths` name, and the folders among them that hold no `.saga` file.
    static func expanding(_ paths: [String]) -> (files: [String], emptyFolders: [String]) {
        var files: [String] = []
        var emptyFolders: [String] = []
        for path in paths {
            guard TextFile.isFolder(path) else {
                files.append(path)
                continue
            }
            // Named as the folder was given (relative stays relative).
            let base = path.hasSuffix("/") ? path : path + "/"
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".saga") && !TextFile.isFolder(base + $0) }
                .sorted()
            if found.isEmpty { emptyFolders.append(path) }
            files += found.map { base + $0 }
        }
        return (files, emptyFolders)
    }
}
