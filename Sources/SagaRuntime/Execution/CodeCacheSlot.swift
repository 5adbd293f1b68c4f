/// A slot of the cache of ``CodeStore``, of the code of statements entered last: a statement's
/// body, its code, and running code of it that ran to its end, ready to run again.
///
/// A statement entered at each action (a `try` in a watcher's body) finds its code here by the
/// address of its body, with no hashing of a dictionary's key, and runs in the running code its
/// last run left, with no allocation. A slot holds one statement's code: another whose body
/// falls in the slot takes it over.
struct CodeCacheSlot {
    /// The body's storage, which keeps the code in ``CodeStore/entries`` too.
    var key: UnsafeRawPointer?
    var code: Code?
    var spare: RunningCode?

    /// How many slots the cache has.
    static let count = 64

    /// The slot of a body's storage.
    static func index(of key: UnsafeRawPointer) -> Int {
        (Int(bitPattern: key) >> 4) & (count - 1)
    }
}
