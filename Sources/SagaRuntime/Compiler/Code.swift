import SagaCore
import SagaLanguage

/// A body compiled by the ``Compiler``: a flat array of instructions over numbered places,
/// with its constants, keys and a line table.
///
/// The ``VM`` runs it in one loop.
///
/// The instructions are plain data (numbers into ``keys``, ``constants``, ``paths``,
/// ``records``, ``calls`` and ``handlers``), so reading one copies a few bytes and retains
/// nothing. A class: the runner hands it on with one reference, where a struct of its arrays
/// would be copied for each run.
final class Code {
    /// Where an instruction reads or writes a value.
    enum Place: Equatable {
        /// The variable in this slot of the body's frame.
        case slot(Int32)
        /// A value between two instructions of one expression: each is written once and then
        /// read once, by moving it out, so no temporary keeps a reference after its statement.
        case temporary(Int32)
        /// One of ``constants`` (a literal): read only.
        case constant(Int32)
        /// A variable of a function called in the code (see ``ValueCall``): an argument,
        /// read as often as the function reads it, set back to null when the call returns.
        case local(Int32)
    }

    /// A step of an assignment's path: a key, or an index computed into a place.
    enum PathStep: Equatable {
        case member(key: Int32)
        case index(Place)
    }

    /// A `try`'s handler (see ``Instruction/tryBegin(_:)``): an error goes to ``target`` when
    /// the `try` has a `catch` (otherwise it is -1), and any other way out of the `try` (an
    /// error it does not catch; in a saga also a `return`, cancellation) goes to ``finally``
    /// when it has a `finally` block.
    struct Handler: Equatable {
        /// The first instruction of the `catch` block; -1 when there is none.
        var target: Int32
        /// Where the error's value goes: the `catch` variable.
        var place: Place
        /// The first temporary the failed instructions may have left set: it and those above
        /// it are set back to null.
        var clearsFrom: Int32
        /// The first instruction of the copy of the `finally` block that runs before a way out
        /// of the `try` goes on, ending with ``Instruction/finallyEnd``; -1 when there is none.
        var finally: Int32 = -1
        /// Whether it is a `transaction`'s, which keeps the compensations registered inside it
        /// (see ``CodeTries/transactions``): they run when an error, cancellation or a
        /// failed child leaves it, and go to the enclosing transaction when it ends otherwise.
        var compensates = false
    }

    /// One instruction.
    enum Instruction: Equatable {
        /// `into = from`.
        case move(Place, into: Place)
        /// `into = state.key`, read in place.
        case stateMember(key: Int32, into: Place)
        /// `into = state`.
        case state(into: Place)
        /// `into = cancelled`: whether the task is being cancelled (see
        /// ``Evaluator/cancelled``); false in a reducer.
        case cancelled(into: Place)
        /// `into = base.key`.
        case member(Place, key: Int32, into: Place)
        /// `into = base[index]`.
        case index(Place, Place, into: Place)
        /// `into = lhs op rhs`, for an operator that evaluates both sides.
        case binary(BinaryOperator, Place, Place, into: Place)
        /// `into = op value` (`-`, `!`).
        case unary(UnaryOperator, Place, into: Place)
        /// The left side of `&&` or `||`, which must be a bool: when it decides, `into` is it
        /// and the code goes on at `decided`, past the right side.
        case logical(BinaryOperator, Place, into: Place, decided: Int32)
        /// The right side of `&&` or `||`, which must be a bool: `into` is it.
        case logicalRight(BinaryOperator, Place, into: Place)
        /// The left side of `??`: unless it is null, `into` is it and the code goes on at the
        /// index, past the right side.
        case unlessNull(Place, into: Place, to: Int32)
        /// `into` (a temporary) becomes an empty list with room for `capacity` items.
        case newList(capacity: Int32, into: Place)
        /// Appends an item to the list a temporary holds (its depth checked, as a literal's is).
        case append(Place, toList: Place)
        /// Fails if the value in the place (left there) is nested too deeply for a record
        /// literal's field, checked before the next field is evaluated.
        case checkDepth(Place)
        /// `into =` a record literal: one of ``records``, its fields' values in their places.
        case record(Int32, into: Place)
        /// `into =` one of ``calls``: a built-in applied to its arguments' values, in their
        /// places.
        case builtin(Int32, into: Place)
        /// Appends to the string a temporary holds the key (a text part of an interpolation),
        /// or the value in a place as `log` shows it; the text must not grow past the longest
        /// string.
        case appendText(key: Int32, to: Place)
        case appendDisplay(Place, to: Place)
        /// Fails if the string or list in the place (left there) is longer than the run's
        /// `--max-length`.
        case checkLength(Place)
        /// `state.key = value`, logged for undo when the reducer needs it.
        case setStateMember(key: Int32, Place)
        /// The start of ``updateStateMember(key:_:lhs:rhs:)``, where `state.key` is read: into
        /// `lhs` when the state is not a record (the read that fails there, in its place);
        /// nothing otherwise.
        case stateMemberUnlessRecord(key: Int32, into: Place)
        /// `state.key = state.key op rhs`, logged for undo: where the state is a record, its
        /// member is updated where it is (`+` appends to a list or a string rather than copy
        /// it); otherwise `lhs op rhs` is stored as ``setStateMember(key:_:)`` stores.
        case updateStateMember(key: Int32, BinaryOperator, lhs: Place, rhs: Place)
        /// `state` followed by one of ``paths`` `= value`, logged for undo.
        case setStatePath(Int32, Place)
        /// `state.P = state.P op rhs` for one of ``paths`` of more than one step, `lhs` holding
        /// what reading `state.P` gave: a list or string that `+` extends is extended where it
        /// lies; otherwise `lhs op rhs` is stored as ``setStatePath(_:_:)`` stores.
        case updateStatePath(Int32, BinaryOperator, lhs: Place, rhs: Place)
        /// The variable in the slot followed by one of ``paths`` `= value`.
        case setSlotPath(slot: Int32, Int32, Place)
        /// `x.P = x.P op rhs` for the variable in the slot and one of ``paths``, `lhs` holding
        /// what reading `x.P` gave: as ``updateStatePath(_:_:lhs:rhs:)`` does for the state.
        case updateSlotPath(slot: Int32, Int32, BinaryOperator, lhs: Place, rhs: Place)
        /// `x = x + rhs` for the variable in the slot: a list or string is extended where the
        /// variable holds it (see ``Evaluator/add(_:to:)``).
        case addToSlot(slot: Int32, Place)
        /// Counts one step: in a reducer, a turn of a loop (too many in one run is an endless
        /// loop); in a saga, a step toward its limits and its yield budget (see
        /// ``CodeSteps/step()``), which may pause the code before it.
        case step
        /// A statement of a saga that the interpreter runs where it stands (an effect, `log`,
        /// `throw`, `return`): one of ``sites``, after its step.
        case statement(Int32)
        /// One of ``sites`` whose operands the code has just computed, after the step taken
        /// before them: run as ``statement(_:)`` runs one.
        case effect(Int32)
        /// A ``step`` then a jump: a jump to a step (a loop's next turn, the statement after an
        /// `if`) made one instruction.
        case stepAndJump(to: Int32)
        /// One of ``valueCalls`` begins, its arguments in their places: the code of the
        /// function's `return` follows. Where the call cannot be made here (it is the one to
        /// fail, or it would nest too deep), its statement runs as written instead, and the code
        /// goes on after the call.
        case call(Int32)
        /// One of ``valueCalls`` returns the value in the place: it is counted (and traced) as
        /// a call made by the statement is, goes into the call's target, and the call's locals
        /// are set back to null.
        case callReturn(Int32, Place)
        /// One of ``puts``, after its statement's step: a `put` of a literal action, processed where it stands (see
        /// ``CodeSteps/put(_:into:_:_:)``); the code goes on unless the task waits for it.
        case put(Int32)
        /// One of ``puts`` whose action the code has just built in the temporary (a `put "t"
        /// {…}` whose fields are not all literals; the entry's own action is unused): put as
        /// ``put(_:)`` puts one, after the step the statement took before its first field.
        case putBuilt(Place, Int32)
        /// One of ``takes``, after its statement's step: a `take` of a literal type, which leaves
        /// the task waiting; the code goes on after it.
        case take(Int32)
        /// `cancel t`, `t` the variable in `slot`, statement `site` of ``sites``, after its
        /// statement's step: a task other than the code's own is cancelled where it stands (see
        /// ``CodeSteps/cancel(_:_:_:)``), and if work is then waiting, the task yields to it; any
        /// other value, the statement runs where it stands.
        case cancelTask(slot: Int32, site: Int32)
        /// `join t` of the variable in `slot`, its value into the variable in `into` (-1:
        /// nowhere), statement `site` of ``sites``, after its statement's step: a task that
        /// has ended with a value gives it at once (see ``CodeSteps/join(_:_:_:)``); anything else,
        /// the statement runs where it stands.
        case joinTask(slot: Int32, into: Int32, site: Int32)
        /// A `fork` of a block, statement `site` of ``sites`` (``Site/forkBlock``), after its
        /// statement's step: the child starts and takes its first turn where the code stands
        /// (see ``CodeSteps/fork(_:_:past:)``), its handle into the `fork`'s variable, and the
        /// code goes on unless the task now waits or yields.
        case forkBlock(site: Int32)
        /// `select state.key` (or `select`, the whole state, when `key` is -1) into the variable in
        /// `slot`, statement `site` of ``sites``, after its statement's step; then, if work is
        /// waiting, the task yields to it, as after any effect that completes at once.
        case select(key: Int32, slot: Int32, site: Int32)
        /// The start of any other `select EXPR`, statement `site` of ``sites``, after its
        /// statement's step: the code's `state` is the store's state until
        /// ``selectEnd(_:)``, and the code that follows computes the expression over it.
        case selectState(site: Int32)
        /// The end of a `select EXPR`: the value in the place is let go of (a `select` whose
        /// value goes nowhere; a variable's is only read), the state too; then, if work is
        /// waiting, the task yields to it.
        case selectEnd(Place)
        /// Starts a `for`: the items of the sequence (a list's, or a record's keys) go in the
        /// temporary `items`, the index of the next one, 0, in the temporary after it.
        case forStart(Place, items: Int32)
        /// The next turn of a `for`: counts a step (in a reducer: see ``CodeSteps/forTurn()``)
        /// and sets the variable to the next item, or, with none left, goes on at `exit`.
        case forNext(items: Int32, slot: Int32, exit: Int32)
        /// Sets a `for`'s two temporaries back to null.
        case forEnd(items: Int32)
        /// Sets every temporary back to null: the end of a code with a `for`, which a
        /// `return` inside the loop reaches without passing the loop's end.
        case clearTemporaries
        /// Goes on at the index unless the place holds `true` (anything but a bool fails).
        case jumpUnless(Place, to: Int32)
        /// Goes on at the index unless `lhs op rhs` is `true`, for a comparison operator: an
        /// `if` arm's or a `while` loop's usual condition, in one instruction.
        case jumpUnlessCompare(BinaryOperator, Place, Place, to: Int32)
        /// The end of a turn of a `while` loop whose condition is a comparison of two places
        /// that need no instruction (`while i < n`): the next turn's ``step``, then its test,
        /// back into the body at the index while `lhs op rhs` is `true`, past the loop when it
        /// is not. One instruction where there would be two (a ``stepAndJump(to:)`` to the
        /// loop's ``jumpUnlessCompare(_:_:_:to:)``).
        case stepAndLoopIfCompare(BinaryOperator, Place, Place, to: Int32)
        /// Goes on at the index (the end of the code ends the body).
        case jump(to: Int32)
        /// A `try` or a saga's `transaction` begins: until the matching ``tryEnd``, what leaves
        /// the code abruptly (an error; in a saga also a `return`, cancellation, a failed
        /// child) goes to one of ``handlers``: the runner keeps a reducer's, the interpreter a
        /// saga's, with the code's place in it (see ``CodeTries/handlers``).
        case tryBegin(Int32)
        /// The innermost `try` or `transaction` ends (a transaction's compensations go to the
        /// enclosing one).
        case tryEnd
        /// The end of a copy of a `finally` block that a way out of its `try` ran: that way
        /// out goes on (see ``CodeTries/pending``).
        case finallyEnd
        /// A jump leaves a copy of a `finally` block that a way out of its `try` runs: that
        /// way out is dropped, as a `break`, `continue` or `return` in a `finally` block
        /// overrides it.
        case finallyLeave
        /// `log`: the value in the place, as `log` shows it, becomes a transcript line (a saga's
        /// only).
        case log(Place)
        /// A saga's `return`: its body returns the value in the place.
        case returnValue(Place)
        /// A saga's `throw`: the value in the place is thrown (see
        /// ``Interpreter/thrownError(_:)``).
        case throwValue(Place)
        /// Fails with a `TypeError` whose message is the key: what the checker refuses and the
        /// body cannot do.
        case fail(key: Int32)
        /// Goes on at the index unless whether the place holds null is `isNull`: the test of
        /// `x == null` (`true`) or `x != null` (`false`), which looks at `x` where it lies.
        case jumpUnlessNull(Place, isNull: Bool, to: Int32)
    }

    /// The instructions, as an array (for listings and tests; the runner reads
    /// ``instructionBase``).
    var instructions: [Instruction] { Array(UnsafeBufferPointer(start: instructionBase, count: instructionCount)) }
    /// Where each instruction comes from: the statement or expression it is part of, or
    /// ``taskLocation``.
    let lines: [SourceLocation]
    /// The line of a step that is reported where its task is (the end of a `try`'s block).
    static let taskLocation = SourceLocation(file: -1, line: 0, column: 0)
    let keys: [String]
    /// The constants, as an array (for listings and tests; the runner reads ``constantBase``).
    var constants: [Value] { Array(UnsafeBufferPointer(start: constantBase, count: constantCount)) }
    let paths: [[PathStep]]
    /// The record literals: each field's key and the place of its value, in source order.
    let records: [[(key: Int32, value: Place)]]
    /// The built-in calls: the function and its arguments' places, in order.
    let calls: [(builtin: Builtin, arguments: [Place])]
    let handlers: [Handler]
    /// The statements that ``Instruction/statement(_:)`` runs.
    let sites: [Site]
    /// The calls of one-`return` functions made in the code (see ``ValueCall``).
    let valueCalls: [ValueCall]

    /// How many values the code's temporaries and locals take.
    var roomCount: Int { temporaryCount + localCount }

    /// The statement run where it stands that ends just before `pc`, if one does: the one a
    /// task that waits there waited on.
    func site(endingAt pc: Int) -> Site? {
        guard pc > 0, pc <= instructionCount else { return nil }
        let index: Int32
        switch instructionBase[pc - 1] {
        case .statement(let site), .effect(let site), .cancelTask(_, let site), .joinTask(_, _, let site),
            .forkBlock(let site):
            index = site
        case .take(let take): index = takes[Int(take)].site
        case .select(_, _, let site), .selectState(let site): index = site
        case .put(let put), .putBuilt(_, let put): index = puts[Int(put)].site
        case .callReturn(let call, _), .call(let call): index = valueCalls[Int(call)].site
        default: return nil
        }
        return sites.indices.contains(Int(index)) ? sites[Int(index)] : nil
    }

    /// The call whose `return`'s code holds the instruction at `index`, if any.
    func call(containing index: Int) -> ValueCall? {
        valueCalls.first { $0.callAt < index && index < $0.returnAt }
    }
    /// The `put`s of literal actions that ``Instruction/put(_:)`` makes: the action, the slot
    /// its value goes into (-1: nowhere) and its statement among ``sites``; in a buffer of the
    /// code's own, as the instructions are.
    let puts: UnsafeMutablePointer<(action: Value, slot: Int32, site: Int32)>
    private let putCount: Int
    /// The `take`s of a literal type that ``Instruction/take(_:)`` makes, as ``puts``.
    let takes: UnsafeMutablePointer<Take>
    /// A `take` of ``takes``: its pattern, the slot the action goes into (-1: nowhere) and its
    /// statement among ``sites``.
    typealias Take = (pattern: ActionPattern, slot: Int32, site: Int32)
    private let takeCount: Int
    /// How many temporaries the code uses at most.
    let temporaryCount: Int
    /// How many locals its calls use (see ``Place/local(_:)``), kept after its temporaries.
    let localCount: Int
    /// The size of the frame of variables it was compiled for.
    let slotCount: Int
    /// Whether the code reads no variable but the action (slot 0) and writes none (see
    /// ``readsOnlyTheAction(_:records:paths:calls:)``): it then runs with no variables array.
    let readsOnlyTheAction: Bool
    /// Whether a function with this code runs in its caller's task when called (see
    /// ``runsInCallersTask(_:handlers:sites:)``).
    let runsInCallersTask: Bool
    /// Whether the code writes none of its task's variables (the body of a `race` or `all`
    /// entry, which shares the frame of the task that started it): it runs over them where they
    /// lie, not over a copy made for it to write.
    private(set) var writesNoVariables = false
    /// ``inlineSteps``, found the first time it is asked for (-2 until then), -1 for code that
    /// cannot run in its parent's turn.
    var inlineStepCount: Int {
        if cachedInlineSteps == -2 { cachedInlineSteps = inlineSteps ?? -1 }
        return cachedInlineSteps
    }
    @exclusivity(unchecked) private var cachedInlineSteps = -2
    /// Whether ``markHiddenHandles(in:)`` has run.
    @exclusivity(unchecked) var hiddenHandlesMarked = false

    /// The instructions and the constants, in buffers of the code's own: read with no bounds
    /// check (every index in an instruction is one the compiler made) and no array to load
    /// through.
    let instructionBase: UnsafeMutablePointer<Instruction>
    let instructionCount: Int
    let constantBase: UnsafeMutablePointer<Value>
    let constantCount: Int
    /// The variables of the frame around a `fork` or `spawn` block that its code uses
    /// (``SagaLanguage/Block/capturedSlots``), in a buffer of the code's own; `captureCount`
    /// is -1 for code that uses any of them.
    let captureBase: UnsafeMutablePointer<Int32>
    let captureCount: Int

    /// A statement the interpreter runs where it stands (see ``Instruction/statement(_:)``).
    ///
    /// A class: the interpreter reads one with a single reference, where a struct would be
    /// copied out of the array, its statement and block each retained.
    final class Site {
        let statement: Stmt
        /// In a traced run, its effect as the trace describes it, made the first time it runs
        /// (see ``RunTrace/noteEffect(at:_:)``).
        @exclusivity(unchecked) var tracedEffect: TracedEffect?
        /// The code of the bodies its effect runs as tasks (the entries of its `race` or `all`,
        /// or the host function it forks; see ``Code/init(effectTask:at:slotCount:returnedValues:)``),
        /// by entry, each made for a frame of its ``Code/slotCount``: made the first time the
        /// statement runs, used again after.
        @exclusivity(unchecked) var effectTasks: [Code?] = []
        /// The code of its `fork` block (``forkBlock``), found the first time it runs, for a
        /// frame of ``blockCodeSize`` variables: held by the site, read without a retain.
        @exclusivity(unchecked) private(set) var blockCodeReference: Unmanaged<Code>?
        @exclusivity(unchecked) private(set) var blockCodeSize = -1
        @exclusivity(unchecked) private var heldBlockCode: Code?

        /// Keeps `code` as its `fork` block's code for a frame of `size` variables.
        func keepBlockCode(_ code: Code, size: Int) {
            heldBlockCode = code
            blockCodeReference = .passUnretained(code)
            blockCodeSize = size
        }
        /// The keys of its `race`'s or `all`'s entries, made the first time it runs.
        @exclusivity(unchecked) var entryKeys: [String]?
        /// The type its `take "t"` (with or without `where`) names, and the pattern that
        /// type spells, read once: `nil` for any other statement.
        let takePattern: (type: String, pattern: ActionPattern)?
        /// How many operands its effect has (see ``SagaLanguage/Effect/operands``), whose
        /// values the code leaves in ``operand(_:)``.
        let operandCount: Int
        /// The places of the operands, in a buffer of the site's own: read without a retain.
        private let operandBase: UnsafeMutablePointer<Place>

        /// The places of the operands.
        var operands: [Place] { Array(UnsafeBufferPointer(start: operandBase, count: operandCount)) }

        /// Where the code leaves the value of operand `index`.
        @inline(__always)
        func operand(_ index: Int) -> Place { operandBase[index] }

        deinit {
            operandBase.deallocate()
        }

        /// The temporary its effect leaves its value in, which the code then stores through a
        /// path (`r.x = take "t"`); -1 when the effect stores it itself.
        let result: Int32
        /// Whether the statement is a `fork` after which the task's code only jumps and turns
        /// loops until it takes an action (see ``Code/findForksBeforeTakes(_:_:)``): the turn
        /// that follows the `fork`, once its body has had its own, changes nothing another
        /// task could see (see ``Interpreter/isQuietOrStale(_:)``).
        @exclusivity(unchecked) var takesNext = false
        /// For a `fork` that ``takesNext``: the instruction of the `take` its code comes to, that
        /// `take`'s index in ``Code/takes``, and how many steps getting there takes, the `take`'s
        /// own included (see ``Interpreter/continueToTake(_:_:)``).
        @exclusivity(unchecked) var nextTake: (pc: Int32, take: Int32, steps: Int32) = (-1, -1, 0)
        /// Whether the statement is a `fork` or `spawn` whose child takes its first turn at once,
        /// in the statement, where it can (see ``Interpreter/runFirstTurn(parentWaits:_:)``): any but one
        /// that ``takesNext``.
        @exclusivity(unchecked) var childTakesTurnAtOnce = false
        /// Whether the statement is a `fork` whose handle goes into a watcher's hidden variable
        /// (``SagaLanguage/Watcher/hiddenSlot``), which only the watcher's own `cancel` and
        /// `join` read: its block may run in its parent's turn (see ``Interpreter/InlineBodies``).
        @exclusivity(unchecked) var handleIsHidden = false
        /// Whether the statement is a `fork` after which the task's code only joins the task it
        /// started (see ``Code/findForksBeforeTakes(_:_:)``): while the child takes its first
        /// turn, the task's turn after it would only block on that join, or go on past it
        /// once the child has ended, so the child's `put` may be processed on the spot.
        @exclusivity(unchecked) var joinsNext = false
        /// Its `take`'s `where` condition, compiled.
        let condition: TakeCondition?

        /// Its effect's `fork` of a block (`fork { … }`, `let t = fork { … }`, `t = fork { … }`),
        /// read once for ``Code/Instruction/forkBlock(site:)``: the block, its frame's size (-1:
        /// the whole frame), the `fork`'s place and the variable its task goes into (-1: none).
        let forkBlock: Block?
        let forkFrameSize: Int32
        let forkLocation: SourceLocation
        let forkSlot: Int32

        init(_ statement: Stmt, operands: [Place], result: Int32, slotCount: Int) {
            self.statement = statement
            self.result = result
            let fork = result < 0 ? Self.fork(of: statement) : nil
            forkBlock = fork?.block
            forkFrameSize = fork?.block.frameSize ?? -1
            forkLocation = fork?.location ?? statement.location
            forkSlot = fork?.slot ?? -1
            if case .take(_, let condition?, _) = Compiler.effect(of: statement) {
                self.condition = TakeCondition(condition, slotCount: slotCount)
            } else {
                self.condition = nil
            }
            operandCount = operands.count
            operandBase = .allocate(capacity: max(operands.count, 1))
            operandBase.initialize(from: operands, count: operands.count)
            takePattern = Self.literalTake(of: statement).map { ($0, ActionPattern(string: $0)) }
        }

        /// The statement's `fork` of a block, if that is its effect, its task into a variable
        /// with no path or nowhere.
        static func fork(of statement: Stmt) -> (block: Block, location: SourceLocation, slot: Int32)? {
            switch statement {
            case .effect(.fork(.block(let block), let location), _):
                return (block, location, -1)
            case .declare(let v, _, .effect(.fork(.block(let block), let location)), _) where v.slot >= 0:
                return (block, location, Int32(v.slot))
            case .assign(let target, .effect(.fork(.block(let block), let location)), _):
                guard target.path.isEmpty, case .variable(let v) = target.root, v.slot >= 0 else { return nil }
                return (block, location, Int32(v.slot))
            default:
                return nil
            }
        }

        /// The type of the statement's `take "t"`, if that is its effect.
        private static func literalTake(of statement: Stmt) -> String? {
            let effect: Effect
            switch statement {
            case .effect(let e, _), .declare(_, _, .effect(let e), _), .assign(_, .effect(let e), _): effect = e
            default: return nil
            }
            guard case .take(.expr(.literal(.string(let type), _)), _, _) = effect else { return nil }
            return type
        }

        /// The pattern of `take "type"` run by this statement: read from the type only when
        /// the statement has none of its own (or another).
        func pattern(ofTake type: String) -> ActionPattern {
            if let takePattern, Record.sameKey(takePattern.type, type) { return takePattern.pattern }
            return ActionPattern(string: type)
        }
    }

    /// A `let x = call f(…)` or `x = call f(…)` of a function whose body is one `return`,
    /// made in the code: ``Instruction/call(_:)``, the code of the `return`'s expression over
    /// the arguments' places, and ``Instruction/callReturn(_:_:)``.
    ///
    /// Where an instruction of the `return`'s code fails, the statement runs as written
    /// instead, and reports the failure with the function's frame.
    ///
    /// A class, read with one reference, as ``Site`` is.
    final class ValueCall {
        /// The function's index in the program.
        let function: Int32
        /// Where its arguments are, in a buffer of the call's own (read without a retain), and
        /// how many: a variable or a constant as it is, any other value in a local.
        let argumentBase: UnsafeMutablePointer<Place>
        let argumentCount: Int
        /// Where its value goes.
        let target: Place
        /// The statement, one of ``Code/sites``, that runs where the call cannot be made in
        /// the code, over the arguments where they were computed.
        let site: Int32
        /// The same statement, over the call's arguments where its `return`'s code reads
        /// them (its locals), which runs where that code failed: it fails again as the
        /// function runs, and is reported with the function's frame.
        let failSite: Int32
        /// The first temporary the call's instructions may leave set when it cannot be made
        /// or fails: it and those above it are set back to null.
        let clearsFrom: Int32
        /// The call's locals: its arguments that are neither variables nor constants.
        let locals: Range<Int32>
        /// Where its ``Instruction/call(_:)`` and ``Instruction/callReturn(_:_:)`` stand: the
        /// `return`'s code is between them.
        var callAt: Int32 = -1
        var returnAt: Int32 = -1
        /// Where the `return`'s value is when it needs no instruction (a variable or a
        /// constant): the ``Instruction/call(_:)`` then returns it itself, as the
        /// ``Instruction/callReturn(_:_:)`` after it would.
        var returnsAtOnce: Place?
        /// Whether the call takes its statement's step first (its arguments need no
        /// instructions, so nothing stands between the step and the call).
        var stepsFirst = false

        init(
            function: Int32, arguments: [Place], target: Place, site: Int32, failSite: Int32, clearsFrom: Int32,
            locals: Range<Int32>
        ) {
            self.function = function
            self.target = target
            self.site = site
            self.failSite = failSite
            self.clearsFrom = clearsFrom
            self.locals = locals
            argumentCount = arguments.count
            argumentBase = .allocate(capacity: max(arguments.count, 1))
            argumentBase.initialize(from: arguments, count: arguments.count)
        }

        deinit {
            argumentBase.deinitialize(count: argumentCount)
            argumentBase.deallocate()
        }
    }

    /// Compiles a reducer's body; `slotCount` is the size of its frame.
    convenience init(reducer body: [Stmt], slotCount: Int) {
        var compiler = Compiler(slotCount: slotCount)
        compiler.compile(body: body)
        self.init(compiler, slotCount: slotCount, readsOnlyTheAction: nil)
    }

    /// Compiles a task's body (see ``Compiler/sagaBody(_:slotCount:returnedValues:)``), whose
    /// variables are the first `slotCount` of its task; `nil` if it has a statement the code
    /// cannot hold.
    ///
    /// `captures` are the variables of the frame around the body that it uses, for a `fork`'s
    /// or `spawn`'s block (see ``copyCaptures(_:into:)``); `nil`: any.
    convenience init?(
        sagaBody statements: [Stmt], slotCount: Int, returnedValues: [Expr?] = [], captures: [Int32]? = nil
    ) {
        guard let compiler = Compiler.sagaBody(statements, slotCount: slotCount, returnedValues: returnedValues)
        else { return nil }
        self.init(compiler, slotCount: slotCount, readsOnlyTheAction: false, captures: captures)
    }

    /// Compiles the body of a `race` or `all` entry that runs `effect` over the first
    /// `slotCount` variables of a task (see ``Compiler/effectTask(_:at:slotCount:returnedValues:)``);
    /// `nil` if the effect names a variable outside them.
    convenience init?(effectTask effect: Effect, at location: SourceLocation, slotCount: Int, returnedValues: [Expr?]) {
        guard
            let compiler = Compiler.effectTask(
                effect, at: location, slotCount: slotCount, returnedValues: returnedValues)
        else { return nil }
        self.init(compiler, slotCount: slotCount, readsOnlyTheAction: false)
        writesNoVariables = true
    }

    /// The code of an expression over the first `slotCount` variables of a task, in which
    /// `it` is the code's state (a `take`'s `where` condition, see ``TakeCondition``): it
    /// ends by returning the expression's value (``CodeExit/returns(_:)``).
    convenience init(expression: Expr, slotCount: Int) {
        var compiler = Compiler(slotCount: slotCount)
        compiler.forSaga = true
        compiler.itIsState = true
        compiler.emit(.returnValue(compiler.place(of: expression)))
        self.init(compiler, slotCount: slotCount, readsOnlyTheAction: false)
    }

    /// A body that fails at once with a `TypeError` saying `message`: the code of a body that
    /// does not compile, which only a program the checker refuses has.
    static func failing(_ message: String) -> Code {
        var compiler = Compiler(slotCount: 0)
        compiler.forSaga = true
        compiler.fail(message)
        return Code(compiler, slotCount: 0, readsOnlyTheAction: false)
    }

    /// The code of no body: a task that runs none (a saga written in Swift), or one whose body
    /// has ended.
    nonisolated(unsafe) static let none = Code(Compiler(slotCount: 0), slotCount: 0, readsOnlyTheAction: false)

    private init(_ compiler: Compiler, slotCount: Int, readsOnlyTheAction: Bool?, captures: [Int32]? = nil) {
        self.slotCount = slotCount
        let captures = captures?.filter { $0 >= 0 && $0 < slotCount }
        captureCount = captures?.count ?? -1
        captureBase = .allocate(capacity: max(captures?.count ?? 0, 1))
        if let captures { captureBase.initialize(from: captures, count: captures.count) }
        keys = compiler.keys
        paths = compiler.paths
        records = compiler.records
        calls = compiler.calls
        handlers = compiler.handlers
        sites = compiler.sites.indices.map {
            Site(
                compiler.sites[$0], operands: compiler.siteOperands[$0], result: compiler.siteResults[$0],
                slotCount: slotCount)
        }
        valueCalls = compiler.valueCalls
        var instructions = compiler.instructions
        var lines = compiler.lines
        for (i, instruction) in instructions.enumerated() {
            guard case .jump(let target) = instruction, instructions.indices.contains(Int(target)),
                case .step = instructions[Int(target)]
            else { continue }
            instructions[i] = .stepAndJump(to: target + 1)
            lines[i] = lines[Int(target)]
        }
        self.lines = lines
        Self.findForksBeforeTakes(sites, instructions)
        putCount = compiler.puts.count
        puts = .allocate(capacity: max(putCount, 1))
        puts.initialize(from: compiler.puts, count: putCount)
        takeCount = compiler.takes.count
        takes = .allocate(capacity: max(takeCount, 1))
        takes.initialize(from: compiler.takes, count: takeCount)
        temporaryCount = compiler.temporaryCount
        localCount = compiler.localCount
        self.readsOnlyTheAction =
            readsOnlyTheAction
            ?? Code.readsOnlyTheAction(instructions, records: records, paths: paths, calls: calls)
        runsInCallersTask = Self.runsInCallersTask(instructions, handlers: handlers, sites: sites)
        instructionCount = instructions.count
        instructionBase = .allocate(capacity: max(instructionCount, 1))
        instructionBase.initialize(from: instructions, count: instructionCount)

        constantCount = compiler.constants.count
        constantBase = .allocate(capacity: max(constantCount, 1))
        constantBase.initialize(from: compiler.constants, count: constantCount)
    }

    deinit {
        puts.deinitialize(count: putCount)
        puts.deallocate()
        takes.deinitialize(count: takeCount)
        takes.deallocate()
        instructionBase.deinitialize(count: instructionCount)
        instructionBase.deallocate()
        constantBase.deinitialize(count: constantCount)
        constantBase.deallocate()
        captureBase.deallocate()
    }

    /// Copies into `slots`, the frame of a task of this code, the variables of `env` (its
    /// parent's) that the code uses (``captureBase``, or the first of them where it may use
    /// any): the others are left as they are, null in a new frame.
    @inline(__always)
    func copyCaptures(_ env: UnsafeBufferPointer<Value>, into slots: UnsafeMutableBufferPointer<Value>) {
        guard captureCount >= 0 else {
            for i in 0..<min(slots.count, env.count) { slots[i] = env[i] }
            return
        }
        for c in 0..<captureCount {
            let i = Int(captureBase[c])
            if i < slots.count, i < env.count { slots[i] = env[i] }
        }
    }
}
