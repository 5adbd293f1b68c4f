import SagaCore
import SagaLanguage

/// Compiles a checked body into ``Code``: statements and expressions become flat
/// instructions over places (variables, temporaries, constants), jumps for control flow, and
/// handlers for `try`.
///
/// `try … finally` is compiled as its copies: the `finally` block follows the body, follows
/// the `catch` block, and runs before the error goes on when neither catches it; a `break`,
/// `continue` or `return` that leaves the `try` runs a copy on its way out too.
struct Compiler {
    var instructions: [Code.Instruction] = []
    var lines: [SourceLocation] = []
    var keys: [String] = []
    var constants: [Value] = []
    var paths: [[Code.PathStep]] = []
    var records: [[(key: Int32, value: Code.Place)]] = []
    var calls: [(builtin: Builtin, arguments: [Code.Place])] = []
    var handlers: [Code.Handler] = []
    /// Where a saga statement stands whose step is still to be emitted: before the next
    /// instruction, unless that instruction takes it itself (see
    /// ``Code/Instruction/statement(_:)``, ``Code/ValueCall/stepsFirst``).
    var pendingStep: SourceLocation?
    /// The statements of a saga's loop that the interpreter runs (see
    /// ``Code/Instruction/statement(_:)``).
    var sites: [Stmt] = []
    /// The places of each site's effect's operands, computed before it runs.
    var siteOperands: [[Code.Place]] = []
    /// The temporary each site's effect leaves its value in, for code after it to store
    /// through a path; -1 for a site whose effect stores its value itself.
    var siteResults: [Int32] = []
    /// The calls of one-`return` functions in a saga's loop (see ``Code/ValueCall``).
    var valueCalls: [Code.ValueCall] = []
    /// What each function of the program returns, by index, when its body is one `return`
    /// whose call the code makes itself (see ``Code/returnedValues(of:)``, ``Code/ValueCall``).
    var returnedValues: [Expr?] = []
    /// While a called function's expression is compiled: the places of its variables, its
    /// arguments (see ``Code/ValueCall``).
    var parameterPlaces: [Code.Place]?
    /// How many locals the code's calls use (see ``Code/Place/local(_:)``).
    var localCount = 0
    /// The `put`s and `take`s of a saga's loop that are instructions of their own (see
    /// ``Code/puts``, ``Code/takes``).
    var puts: [(action: Value, slot: Int32, site: Int32)] = []
    var takes: [(pattern: ActionPattern, slot: Int32, site: Int32)] = []
    /// How many temporaries the code uses at most.
    var temporaryCount = 0

    /// The number of the body's own variables: a slot outside them is an error.
    let slotCount: Int
    /// Where the instructions being emitted come from.
    var location = SourceLocation(file: -1, line: 0, column: 0)
    /// Temporaries in use while the current statement is compiled.
    var temporariesInUse = 0
    /// The temporaries below this are the items and indexes of the `for` loops, and the
    /// errors of the `try … finally`s, being compiled: a statement's own temporaries start
    /// above them.
    var temporaryFloor = 0
    /// Whether the code has a `for` (whose temporaries a `return` may leave set).
    var hasFor = false
    /// Jumps to the end of the code (`return`, and `break` or `continue` outside a loop), set
    /// once the end is known.
    var jumpsToEnd: [Int] = []

    /// A loop being compiled: where `continue` goes, the `break`s to point at its end, and
    /// how many `try`s enclosed it.
    struct Loop {
        var continueAt: Int32
        var breaks: [Int] = []
        var tries: Int
    }

    var loops: [Loop] = []
    /// What a jump out of the blocks being compiled must do, innermost last (see
    /// ``Leaving``).
    var tries: [Leaving] = []
    /// Whether the code is a saga's (see ``sagaBody(_:slotCount:returnedValues:)``): its
    /// statements take steps, and its effects are statements the interpreter runs; a reducer's
    /// counts only its loops' turns, and has no effects.
    var forSaga = false
    /// Set while a saga's `select` expression compiles: it reads `state`, the store's.
    var selecting = false
    /// Set for a `take`'s `where` condition: `it`, the action, is the code's state.
    var itIsState = false
    /// Set when the code names a variable outside its frame: a saga's body that does then
    /// does not compile (see ``sagaBody(_:slotCount:returnedValues:)``).
    var refusesBody = false

    /// A block being compiled that a `break`, `continue` or `return` must leave on its way out.
    enum Leaving {
        /// The body or the `catch` block of a `try` (or a `transaction`'s body, with no
        /// `finally`): its handler ends, then its `finally` block runs.
        case tryBlock(finally: [Stmt]?)
        /// A copy of a `finally` block that a way out of its `try` runs: that way out is dropped.
        case finallyCopy
    }

    init(slotCount: Int) {
        self.slotCount = slotCount
    }

    /// Compiles a reducer's whole body, which ends at the end of the code.
    mutating func compile(body: [Stmt]) {
        compile(body)
        let end = Int32(instructions.count)
        if hasFor { emit(.clearTemporaries) }
        for i in jumpsToEnd { instructions[i] = .jump(to: end) }
        jumpsToEnd = []
    }

    /// Appends an instruction, noting where it comes from.
    mutating func emit(_ instruction: Code.Instruction) {
        if let at = pendingStep {
            pendingStep = nil
            switch instruction {
            case .statement, .take, .put, .select, .selectState, .cancelTask, .joinTask, .forkBlock:
                // It takes its statement's step itself.
                break
            case .call(let index):
                valueCalls[Int(index)].stepsFirst = true
            default:
                instructions.append(.step)
                lines.append(at)
            }
        }
        instructions.append(instruction)
        lines.append(location)
    }

    /// The next instruction's index.
    var here: Int32 { Int32(instructions.count) }

    /// Emits a jump to be pointed later (`patch(_:to:)`); its index.
    mutating func emitJump() -> Int {
        emit(.jump(to: -1))
        return instructions.count - 1
    }

    /// A new handler, pointed once its target is known.
    mutating func newHandler() -> Int32 {
        handlers.append(Code.Handler(target: -1, place: .temporary(0), clearsFrom: 0))
        return Int32(handlers.count - 1)
    }

    /// Keeps `count` more temporaries from the statements' use until `temporaryFloor` is
    /// lowered again.
    mutating func reserveTemporaries(_ count: Int) {
        temporaryFloor += count
        temporariesInUse = Swift.max(temporariesInUse, temporaryFloor)
        temporaryCount = Swift.max(temporaryCount, temporaryFloor)
    }

    /// An instruction that fails with a `TypeError`: what the checker refuses.
    mutating func fail(_ message: String) {
        emit(.fail(key: keyIndex(message)))
    }

    /// A variable outside the frame: a reducer fails there, and a saga's body does not compile
    /// (see ``refusesBody``).
    mutating func unknownVariable(_ name: String) {
        refusesBody = true
        fail("unknown variable '\(name)'")
    }

    func isOwnSlot(_ slot: Int) -> Bool {
        slot >= 0 && slot < slotCount
    }

    mutating func keyIndex(_ key: String) -> Int32 {
        if let i = keys.firstIndex(where: { Record.sameKey($0, key) }) { return Int32(i) }
        keys.append(key)
        return Int32(keys.count - 1)
    }

    mutating func newTemporary() -> Code.Place {
        let t = Code.Place.temporary(Int32(temporariesInUse))
        temporariesInUse += 1
        temporaryCount = Swift.max(temporaryCount, temporariesInUse)
        return t
    }

    mutating func addRecord(_ entries: [(key: Int32, value: Code.Place)]) -> Int32 {
        records.append(entries)
        return Int32(records.count - 1)
    }

    mutating func addCall(_ builtin: Builtin, _ arguments: [Code.Place]) -> Int32 {
        calls.append((builtin, arguments))
        return Int32(calls.count - 1)
    }

    mutating func addConstant(_ value: Value) -> Code.Place {
        constants.append(value)
        return .constant(Int32(constants.count - 1))
    }
}
