/// A slot of the cache of ``CodeStore``, of the code of bodies started last: a body's storage
/// and its code.
///
/// A body started at each action (a watcher's) finds its code here by the address of its
/// statements, with no hashing of a dictionary's key. A slot holds one body's code: another
/// whose statements fall in the slot takes it over.
struct CodeCacheSlot {
    /// The body's storage, which keeps the code in ``CodeStore/entries`` too.
    var key: UnsafeRawPointer?
    var code: Code?

    /// How many slots the cache has.
    static let count = 64

    /// The slot of a body's storage.
    static func index(of key: UnsafeRawPointer) -> Int {
        (Int(bitPattern: key) >> 4) & (count - 1)
    }
}
