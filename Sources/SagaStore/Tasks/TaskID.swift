import Synchronization

/// Names a task so that it can be cancelled, replaced (``TaskPolicy/cancelInFlight``) or
/// queued behind others of the same name.
///
/// Any `Hashable & Sendable` value can be an id; a string literal is one. Two ids are equal
/// when their values have the same type and are equal. ``unique()`` makes an id no other
/// task shares: a task that is only ever cancelled with its handle needs no name.
///
/// ```swift
/// let search: TaskID = "search"
/// let row = TaskID(RowTask.thumbnail(rowID))
/// let anonymous = TaskID.unique()
/// ```
public struct TaskID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    let base: any Hashable & Sendable

    /// An id wrapping `value`.
    public init<Value: Hashable & Sendable>(_ value: Value) {
        base = value
    }

    /// An id named by a string literal.
    public init(stringLiteral value: String) {
        base = value
    }

    /// An id equal to no other id made so far or later in this process.
    public static func unique() -> TaskID {
        TaskID(Serial(value: serialCounter.add(1, ordering: .relaxed).newValue))
    }

    public static func == (lhs: TaskID, rhs: TaskID) -> Bool {
        AnyHashable(lhs.base) == AnyHashable(rhs.base)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(base))
    }

    /// The wrapped value, or `#n` for an id made by ``unique()``.
    public var description: String {
        if let serial = base as? Serial { return "#\(serial.value)" }
        return String(describing: base)
    }

    /// The value behind ``unique()``: a type of its own, so it never equals an app's `Int`.
    struct Serial: Hashable, Sendable {
        let value: UInt64
    }
}

/// The last number ``TaskID/unique()`` handed out.
///
/// Only uniqueness matters, so sharing it between tests running in parallel is harmless.
private let serialCounter = Atomic<UInt64>(0)
