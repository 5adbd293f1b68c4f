import SagaCore
import SagaLanguage

/// The code of a program's task bodies (its sagas', functions', forked blocks', watchers' and
/// compensations'), kept by their blocks: compiled when a body first runs, and found again
/// each time one starts after that.
///
/// The parser makes each block anew, so one body's storage is one block's: a body is known by
/// the address of its statements. The entries keep their statements, so that no other block
/// can take that storage over while they are here.
///
/// A body started at each action (a watcher's) finds its code in a small cache in front of
/// the dictionary (``CodeCacheSlot``): no hashing.
struct CodeStore {
    /// The code of each body run, by its statements' storage.
    private(set) var entries: [UnsafeRawPointer: (body: [Stmt], code: Code)] = [:]
    /// The code of the bodies started last, in front of ``entries``.
    private var cache = [CodeCacheSlot](repeating: CodeCacheSlot(), count: CodeCacheSlot.count)
    /// The code of an empty body, made once.
    private var emptyBody: Code?

    /// The most bodies whose code is kept; the code of others is made each time they start.
    static let maximumCount = 4096

    /// The code of `body`, over a task's first `slotCount` variables; for a body that does not
    /// compile (which only a program the checker refuses has), code that fails at once.
    mutating func code(of body: Block, slotCount: Int, returnedValues: [Expr?]) -> Code {
        // An empty body has no storage of its own to key it by (empty arrays have none, or share
        // one).
        guard !body.statements.isEmpty,
            let key = body.statements.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) })
        else {
            if let emptyBody { return emptyBody }
            let made = Self.compile(Block(statements: [], location: body.location), slotCount: 0, returnedValues: [])
            emptyBody = made
            return made
        }
        let slot = CodeCacheSlot.index(of: key)
        if cache[slot].key == key, let code = cache[slot].code, code.slotCount <= slotCount { return code }
        let code: Code
        if let entry = entries[key], entry.code.slotCount <= slotCount {
            code = entry.code
        } else {
            code = Self.compile(body, slotCount: slotCount, returnedValues: returnedValues)
            if entries.count < Self.maximumCount || entries[key] != nil { entries[key] = (body.statements, code) }
        }
        cache[slot] = CodeCacheSlot(key: key, code: code)
        return code
    }

    /// The code of a body that runs `effect` as a task over `slotCount` variables (see
    /// ``Code/init(effectTask:at:slotCount:returnedValues:)``).
    ///
    /// It is `site`'s entry `entry` (see ``Code/Site/effectTasks``): made the first time, found
    /// there after that. Without a site (a saga written in Swift), it is made each time.
    func code(
        ofEffect effect: Effect, at location: SourceLocation, slotCount: Int, site: Code.Site?, entry: Int,
        returnedValues: [Expr?]
    ) -> Code {
        if let site, entry < site.effectTasks.count, let made = site.effectTasks[entry], made.slotCount == slotCount {
            return made
        }
        let code =
            Code(effectTask: effect, at: location, slotCount: slotCount, returnedValues: returnedValues)
            ?? Code.failing("this body cannot be compiled")
        if let site {
            if site.effectTasks.count <= entry {
                site.effectTasks += Array(repeating: nil, count: entry + 1 - site.effectTasks.count)
            }
            site.effectTasks[entry] = code
        }
        return code
    }

    private static func compile(_ body: Block, slotCount: Int, returnedValues: [Expr?]) -> Code {
        Code(
            sagaBody: body.statements, slotCount: slotCount, returnedValues: returnedValues,
            captures: body.capturedSlots)
            ?? Code.failing("this body cannot be compiled")
    }
}
