import SagaCore

/// An entity's name as a key: two names are one entity when their bytes are equal, as two
/// strings of the language are equal.
///
/// Swift's `String` compares canonically equivalent texts as equal (`"café"` precomposed and
/// decomposed), which would make two entities of the program one.
struct EntityName: Hashable, Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (lhs: EntityName, rhs: EntityName) -> Bool {
        Record.sameKey(lhs.text, rhs.text)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
