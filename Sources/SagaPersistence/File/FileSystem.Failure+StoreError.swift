#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FileSystem.Failure {
    /// This failure as the store reports it: code `.io`, the call and the system's words for `errno`.
    func storeError(path fallback: String? = nil) -> StoreError {
        let reason = strerror(errno).map { String(cString: $0) } ?? "errno \(errno)"
        return StoreError(.io, "\(call) failed: \(reason)", path: path ?? fallback)
    }
}
