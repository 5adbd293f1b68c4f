#if canImport(Glibc)
import Glibc
#endif

/// Runs work that recurses once per level of a program's nesting on a thread whose stack
/// holds the deepest nesting the language accepts, in any build.
///
/// The parser, the checker, the compiler and the printers of a program recurse once per level
/// of its nesting, which stops at 256 levels (`nesting too deep`). One level is several
/// frames, and an unoptimized build's frames, a sanitized build's most of all, take
/// kilobytes each: the deepest program can need more stack than a Dispatch worker or a
/// thread of Swift's cooperative pool has (2 MiB when `ulimit -s` is unlimited, as glibc
/// then gives each new thread). ``run(_:)`` runs such work on a thread of its own whose
/// stack is ``stackBytes``, and waits for it; what the work runs in turn stays on that thread.
package enum DeepStack {
    /// The size of the thread's stack: address space, of which only the pages the work
    /// touches take memory.
    package static let stackBytes = 64 << 20

    /// Runs `body` on a thread with a ``stackBytes`` stack and gives its result, or runs it on
    /// the calling thread when that is such a thread already, or when no thread can be made.
    package static func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if isDeep { return try body() }
        return try withoutActuallyEscaping(body) { (body) throws(E) -> T in
            var result: Result<T, E>?
            let job = Job {
                do throws(E) { result = .success(try body()) } catch { result = .failure(error) }
            }
            guard job.runOnDeepStack(), let result else { return try body() }
            return try result.get()
        }
    }

    /// Whether the calling thread is one that ``run(_:)`` made.
    private static var isDeep: Bool {
        #if canImport(Glibc)
        guard let key else { return false }
        return pthread_getspecific(key) != nil
        #else
        return false
        #endif
    }

    #if canImport(Glibc)
    /// The thread-specific key whose value is set on the threads ``run(_:)`` makes.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()
    #endif

    /// The work of one ``run(_:)``, handed to the thread that runs it.
    private final class Job: @unchecked Sendable {
        let work: () -> Void

        init(_ work: @escaping () -> Void) {
            self.work = work
        }

        /// Runs the work on a new thread with a ``DeepStack/stackBytes`` stack and waits for
        /// it to end; `false`, the work not run, if no such thread could be made.
        func runOnDeepStack() -> Bool {
            #if canImport(Glibc)
            var attributes = pthread_attr_t()
            guard pthread_attr_init(&attributes) == 0 else { return false }
            defer { pthread_attr_destroy(&attributes) }
            guard pthread_attr_setstacksize(&attributes, DeepStack.stackBytes) == 0 else { return false }
            let context = Unmanaged.passRetained(self).toOpaque()
            var thread = pthread_t()
            let started = pthread_create(
                &thread, &attributes,
                { context in
                    guard let context else { return nil }
                    let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
                    if let key = DeepStack.key { pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1)) }
                    job.work()
                    return nil
                }, context)
            guard started == 0 else {
                Unmanaged<Job>.fromOpaque(context).release()
                return false
            }
            pthread_join(thread, nil)
            return true
            #else
            return false
            #endif
        }
    }
}
