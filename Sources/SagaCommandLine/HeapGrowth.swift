import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// glibc's heap, told to grow in large steps while `sagarun` compiles a large file.
///
/// A compiled program is a tree of a heap object per node, many times the size of its file,
/// made on the two threads that parse its pieces. glibc grows a thread's heap one page at a
/// time, with an `mprotect` call for each page, and each call takes the address space's lock
/// that the other thread's page faults wait for. Asked to pad every step with 64 MiB
/// (`M_TOP_PAD`), it makes a whole heap writable at once, so that `sagarun check` of a large
/// file spends far less time in the kernel. Memory the program does not touch is only
/// reserved, not used.
///
/// A thread's heap takes the pad in force when the thread first allocates, and the thread
/// that runs a command starts before the command reads its arguments: so `sagarun`'s entry
/// point sets the pad first thing, when the command line names a large `.saga` file
/// (``prepare(for:)``), and each compile of a large file sets it again
/// (``whileCompiling(_:_:)``).
///
/// Only for a file of 1 MiB or more (a small file's compile has nothing to gain), and not
/// when the user tuned malloc through the environment. The pad is set back to glibc's
/// default after the compile, so that a long `sagarun run` does not keep 64 MiB of freed
/// memory at the top of each heap. (Setting it also turns off glibc's sliding `mmap`
/// threshold for the rest of the process, as any of these settings does: a later block of
/// more than 128 KiB is mapped on its own.)
package enum HeapGrowth {
    /// The smallest root file whose compile grows the heap in large steps: the size from
    /// which a file is parsed in pieces, on several threads (`ParsePieces.automatic`).
    static let largeFileBytes = 1 << 20
    /// The pad while a large file compiles: a non-main glibc heap's whole size.
    static let largeStep = 64 << 20
    /// glibc's own default for `M_TOP_PAD` (`mallopt(3)`).
    static let glibcDefaultPad = 128 << 10

    /// Lets the heap grow in large steps from now on if `arguments` name a `.saga` file of
    /// ``largeFileBytes`` or more.
    ///
    /// Called by `sagarun` before anything else runs.
    ///
    /// ```swift
    /// HeapGrowth.prepare(for: CommandLine.arguments)
    /// ```
    package static func prepare(for arguments: [String]) {
        let sagaFiles = arguments.filter { $0.hasSuffix(".saga") }
        if growsInLargeSteps(compiling: sagaFiles, ProcessInfo.processInfo.environment) { setPad(largeStep) }
    }

    /// Runs `body`, a compile of the file at `path`, with the heap growing in large steps if
    /// the file is large.
    static func whileCompiling<T>(_ path: String, _ body: () -> T) -> T {
        guard growsInLargeSteps(compiling: [path], ProcessInfo.processInfo.environment) else { return body() }
        setPad(largeStep)
        defer { setPad(glibcDefaultPad) }
        return body()
    }

    /// Whether a compile of `paths` lets the heap grow in large steps: one of them is large,
    /// and the environment leaves malloc's settings to `sagarun`.
    /// (The environment is read only for a large file: it is a dictionary built anew.)
    static func growsInLargeSteps(
        compiling paths: [String], _ environment: @autoclosure () -> [String: String]
    ) -> Bool {
        paths.contains(where: isLarge) && !userTunedMalloc(environment())
    }

    /// Whether the file at `path` is a regular file of ``largeFileBytes`` or more.
    static func isLarge(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
            && Int(status.st_size) >= largeFileBytes
    }

    /// Whether the environment sets malloc's parameters (`GLIBC_TUNABLES=glibc.malloc.…`, or
    /// the older `MALLOC_TOP_PAD_`, `MALLOC_ARENA_MAX` and the like), which then are the
    /// user's to choose.
    static func userTunedMalloc(_ environment: [String: String]) -> Bool {
        environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.") == true
            || environment.keys.contains { $0.hasPrefix("MALLOC_") }
    }

    private static func setPad(_ bytes: Int) {
        #if canImport(Glibc)
        // `<malloc.h>` is not in the Swift overlay for glibc: `mallopt` is looked up by
        // name (`nil` is `RTLD_DEFAULT`), and `M_TOP_PAD` is its value there, -2.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-2, Int32(bytes))
        #endif
    }
}
