/// An opaque reference to a runtime object that a saga can hold in a variable: a task or a
/// channel.
///
/// Two handles are equal when they name the same object.
///
/// The handle keeps its object alive, so the runtime needs no table from ids to objects
/// (which would keep every finished task forever).
public struct Handle: Sendable {
    /// What a handle refers to.
    public enum Kind: String, Sendable {
        case task
        case channel
    }

    /// What this handle refers to.
    public var kind: Kind
    /// The runtime's number for the object, unique within one run.
    public var id: Int
    /// The object itself; only the runtime that made it knows its type.
    public var object: (any AnyObject & Sendable)?

    /// Creates a handle for the runtime object `id` of the given kind.
    public init(kind: Kind, id: Int, object: (any AnyObject & Sendable)? = nil) {
        self.kind = kind
        self.id = id
        self.object = object
    }
}

extension Handle: Hashable {
    public static func == (lhs: Handle, rhs: Handle) -> Bool {
        lhs.kind == rhs.kind && lhs.id == rhs.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(id)
    }
}
