#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The store's folder, seen through the ``FileSystem`` seam: whole-file reads, full writes,
/// atomic creation (temporary file, sync, rename, sync the folder) and folder syncs.
struct StoreDirectory: Sendable {
    let path: String
    let fs: FileSystem

    func path(of name: String) -> String { path + "/" + name }

    /// Creates the folder (and its missing parents).
    func create() throws(StoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            do { try fs.makeDirectory(prefix) } catch { throw error.storeError() }
        }
    }

    func list() throws(StoreError) -> [String] {
        do { return try fs.listDirectory(path) } catch { throw error.storeError() }
    }

    /// fsyncs the folder, so that created, renamed and removed names are durable.
    func sync() throws(StoreError) {
        let fd: Int32
        do { fd = try fs.open(path, O_RDONLY | O_DIRECTORY, 0) } catch { throw error.storeError() }
        defer { fs.close(fd) }
        do { try fs.fsync(fd) } catch { throw error.storeError(path: path) }
    }

    /// The whole content of the file `name`.
    func read(_ name: String) throws(StoreError) -> [UInt8] {
        let fd = try open(name, O_RDONLY)
        defer { fs.close(fd) }
        return try readAll(fd, name: name)
    }

    /// The snapshot of `generation`, read and checked whole: its header, its elements, and how
    /// many bytes the file holds.
    func readSnapshot(
        _ generation: Int
    ) throws(StoreError) -> (header: FileHeader, elements: EntityIndex, bytes: Int) {
        let name = StoreFormat.snapshotName(generation)
        let bytes = try read(name)
        let (header, elements) = try withBytes(bytes) { (b) throws(StoreError) in
            try SnapshotFile.read(b, path: path(of: name))
        }
        return (header, elements, bytes.count)
    }

    /// The whole content of an open file.
    func readAll(_ fd: Int32, name: String) throws(StoreError) -> [UInt8] {
        let size: Int
        do { size = Int(try fs.seekToEnd(fd)) } catch { throw error.storeError(path: path(of: name)) }
        var done = 0
        var failure: FileSystem.Failure?
        // Uninitialized: the reads overwrite the whole buffer, so zeroing it first is wasted work.
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            do throws(FileSystem.Failure) {
                while done < size {
                    let n = try fs.read(fd, UnsafeMutableRawBufferPointer(rebasing: raw[done...]), Int64(done))
                    if n <= 0 { break }
                    // Never count more than was asked for: `initialized` must not overstate.
                    done += min(n, size - done)
                }
            } catch { failure = error }
            initialized = done
        }
        if let failure { throw failure.storeError(path: path(of: name)) }
        return bytes
    }

    /// Writes all of `bytes` to `fd` at its offset, looping over short writes.
    func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, name: String) throws(StoreError) {
        var done = 0
        while done < bytes.count {
            do throws(FileSystem.Failure) {
                let n = try fs.write(fd, UnsafeRawBufferPointer(rebasing: bytes[done...]))
                if n <= 0 { throw FileSystem.Failure(call: "write", errno: EIO) }
                done += n
            } catch { throw error.storeError(path: path(of: name)) }
        }
    }

    /// Writes all of `bytes` to `fd`.
    func writeAll(_ fd: Int32, _ bytes: [UInt8], name: String) throws(StoreError) {
        try withBytes(bytes) { (b) throws(StoreError) in try writeAll(fd, b, name: name) }
    }

    /// Refuses a store file that is not a regular file (a folder, a FIFO, a device), which
    /// opening would otherwise read, block on or fail to remove.
    func requireRegularFile(_ name: String) throws(StoreError) {
        let isRegular: Bool
        do { isRegular = try fs.isRegularFile(path(of: name)) } catch { throw error.storeError() }
        guard isRegular else {
            throw StoreError(
                .io, "\(name) is not a regular file, as every file of a store must be", path: path(of: name))
        }
    }

    func open(_ name: String, _ flags: Int32) throws(StoreError) -> Int32 {
        do { return try fs.open(path(of: name), flags, 0o644) } catch { throw error.storeError() }
    }

    /// Renames `name` to `newName`, in the folder.
    func rename(_ name: String, to newName: String) throws(StoreError) {
        do { try fs.rename(path(of: name), path(of: newName)) } catch { throw error.storeError() }
    }

    func remove(_ name: String) throws(StoreError) {
        do { try fs.unlink(path(of: name)) } catch { throw error.storeError() }
    }

    /// Creates `name` atomically with `contents` written by `write`: a temporary file is
    /// written and fsynced, renamed into place, and the folder fsynced.
    ///
    /// A crash at any step leaves either no file (a temporary one, which recovery removes) or
    /// the complete file.
    ///
    /// - Returns: The file's descriptor, its offset at the end of what `write` wrote, when
    ///   `keepOpen`; otherwise -1.
    func createAtomically(
        _ name: String, keepOpen: Bool, write: (Int32) throws(StoreError) -> Void
    ) throws(StoreError) -> Int32 {
        let temporary = name + StoreFormat.temporarySuffix
        // Not O_APPEND: a log segment kept open overwrites zeros written ahead of its records.
        let fd = try open(temporary, O_RDWR | O_CREAT | O_TRUNC)
        var handedOver = false
        defer { if !handedOver { fs.close(fd) } }
        do throws(StoreError) {
            try write(fd)
            do { try fs.fsync(fd) } catch { throw error.storeError(path: path(of: temporary)) }
            do { try fs.rename(path(of: temporary), path(of: name)) } catch { throw error.storeError() }
        } catch {
            // On a full disk the half-written file would keep the space; recovery removes
            // it anyway if this fails too.
            try? fs.unlink(path(of: temporary))
            throw error
        }
        try sync()
        if keepOpen {
            handedOver = true
            return fd
        }
        return -1
    }
}

/// `array.withUnsafeBytes` with a typed error (the standard library's rethrows `any Error`).
func withBytes<T>(_ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(StoreError) -> T) throws(StoreError) -> T {
    let result: Result<T, StoreError> = array.withUnsafeBytes { b in
        do throws(StoreError) { return .success(try body(b)) } catch { return .failure(error) }
    }
    return try result.get()
}
