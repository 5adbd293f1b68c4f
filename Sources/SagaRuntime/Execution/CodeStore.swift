import SagaLanguage

/// The code of a saga's loops, `try`s and transactions, kept by their bodies: compiled when a
/// statement is first entered, and found again, with running code ready to run, each time it
/// is entered after that.
///
/// The parser makes each block anew, so one body's storage is one statement's: a statement is
/// known by the address of its body's statements. The entries keep their bodies, so that no
/// other body can take that storage over while they are here.
///
/// A statement entered at each action (a `try` in a watcher's body) finds its code in a small
/// cache in front of the dictionary (``CodeCacheSlot``), with the running code its last run
/// left: no hashing and no allocation.
struct CodeStore {
    /// The code of each statement entered, by its body's storage.
    private(set) var entries: [UnsafeRawPointer: (body: [Stmt], code: Code)] = [:]
    /// The code of the statements entered last, in front of ``entries``.
    private var cache = [CodeCacheSlot](repeating: CodeCacheSlot(), count: CodeCacheSlot.count)

    /// The most statements whose code is kept; the code of others is made at each entry.
    static let maximumCount = 4096

    /// The code of `statement`, whose body is `body`, ready to run from its start over a task's
    /// first `slotCount` variables, or `nil` if it does not compile.
    mutating func entering(
        _ statement: Stmt, _ body: Block, slotCount: Int, callShapes: [CallShape]
    )
        -> RunningCode?
    {
        // An empty body has no storage of its own to key it by (empty arrays have none, or share
        // one): it is compiled each time.
        guard !body.statements.isEmpty,
            let key = body.statements.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) })
        else {
            return Code(sagaStatement: statement, slotCount: slotCount, callShapes: callShapes).map {
                RunningCode($0, key: nil)
            }
        }
        let slot = CodeCacheSlot.index(of: key)
        if cache[slot].key == key, let code = cache[slot].code, code.slotCount <= slotCount {
            if let spare = cache[slot].spare {
                cache[slot].spare = nil
                return spare
            }
            return RunningCode(code, key: key)
        }
        let code: Code
        if let entry = entries[key], entry.code.slotCount <= slotCount {
            code = entry.code
        } else {
            guard let made = Code(sagaStatement: statement, slotCount: slotCount, callShapes: callShapes)
            else { return nil }
            if entries.count < Self.maximumCount { entries[key] = (body.statements, made) }
            code = made
        }
        cache[slot] = CodeCacheSlot(key: key, code: code)
        return RunningCode(code, key: key)
    }

    /// Running code that ran to its end, kept for the next entry into its code (its arrays
    /// keep their room).
    mutating func finished(_ running: RunningCode) {
        guard let key = running.key else { return }
        let slot = CodeCacheSlot.index(of: key)
        guard cache[slot].key == key, cache[slot].code === running.code, cache[slot].spare == nil else { return }
        running.reset()
        cache[slot].spare = running
    }
}
