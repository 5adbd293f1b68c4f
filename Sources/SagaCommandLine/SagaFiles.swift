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
            let found = named(under: path).filter { !TextFile.isFolder($0) }.sorted()
            if found.isEmpty { emptyFolders.append(path) }
            files += found
        }
        return (files, emptyFolders)
    }

    /// Every name ending `.saga` under `folder`, named as the folder was given (relative stays
    /// relative; `.` adds nothing), in the order the folder lists them.
    static func named(under folder: String) -> [String] {
        let base = folder == "." ? "" : folder.hasSuffix("/") ? folder : folder + "/"
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var names: [String] = []
        for case let relative as String in walker where relative.hasSuffix(".saga") { names.append(base + relative) }
        return names
    }
}
