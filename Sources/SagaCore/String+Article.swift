extension String {
    /// The name after "a" or "an", by how its first letter is most often read aloud in a type's
    /// name: `an Int`, `an AppAction`, `an Order`, `a String`, `a User`, `a URL`, for messages
    /// that name a type.
    package var withIndefiniteArticle: String {
        guard let first = first?.lowercased() else { return self }
        // Not `u`: User, UInt, URL and UUID are read with a consonant.
        return ("aeio".contains(first) ? "an " : "a ") + self
    }
}
