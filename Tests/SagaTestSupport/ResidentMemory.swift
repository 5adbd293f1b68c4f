import Foundation

/// This process's resident set, in MiB, from `/proc/self/statm`; `nil` where it cannot be
/// read.
package func residentMiB() -> Int? {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) >> 20
}
