import SagaCore
import SagaLanguage

/// A reducer's body lowered, once, into a flat array of instructions over numbered places,
/// which ``ReducerRunner`` runs instead of walking the statements.
///
/// A reducer runs for every action it matches, and walking `state.count = state.count + a.by`
/// as a tree cost about a thousand instructions: the boxed nodes loaded and retained one by
/// one, the state copied into the evaluator's scope and out again around each statement
/// (callgrind, every-select-put). Here what reducers are mostly made of (`let`, assignments
/// to a variable, to `state.key` and through paths, `if`, `while`, `loop`, `for`, `break`,
/// `continue`, `return`; literals, variables,
/// `state.key`, `x.key`, `x[i]`, the operators, `&&`, `||` and `??` as jumps, list and record
/// literals, loops) is instructions that hold no references; anything else (a built-in,
/// interpolation) runs as before, through the statement walker or the
/// ``Evaluator``, as one instruction. Both ways share the operators' code, so they give the
/// same values and the same errors.
///
/// The instructions are plain data (numbers into ``keys``, ``constants``, ``expressions``,
/// ``statements``, ``paths`` and ``records``), so reading one copies a few bytes and retains nothing. A class: the
/// runner hands it on with one reference, where a struct of five arrays was copied for each
/// run (five retains and five releases: a third of the lowered reducer's cost, callgrind).
final class ReducerCode {
    /// Where an instruction reads or writes a value.
    enum Place: Equatable {
        /// The reducer's variable in this slot (its frame, ``ReducerDecl/slotCount`` long).
        case slot(Int32)
        /// A value between two instructions of one expression: each is written once and then
        /// read once, by moving it out, so no temporary keeps a reference after its statement.
        case temporary(Int32)
        /// One of ``constants`` (a literal): read only.
        case constant(Int32)
    }

    /// A step of an assignment's path: a key, or an index computed into a place.
    enum PathStep: Equatable {
        case member(key: Int32)
        case index(Place)
    }

    /// One step of a lowered reducer.
    enum Instruction: Equatable {
        /// `into = from`.
        case move(Place, into: Place)
        /// `into = state.key`, read in place.
        case stateMember(key: Int32, into: Place)
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
        /// literal's field, as the evaluator checks each field before the next is evaluated.
        case checkDepth(Place)
        /// `into =` a record literal: one of ``records``, its fields' values in their places.
        case record(Int32, into: Place)
        /// `into =` one of ``expressions``, by the ``Evaluator`` (with `state` in scope).
        case evaluate(Int32, into: Place)
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
        /// Counts one turn of a loop (too many in one run is an endless loop).
        case step
        /// Starts a `for`: the items of the sequence (a list's, or a record's keys) go in the
        /// temporary `items`, the index of the next one, 0, in the temporary after it.
        case forStart(Place, items: Int32)
        /// The next turn of a `for`: counts a step and sets the variable to the next item, or,
        /// with none left, goes on at `exit`.
        case forNext(items: Int32, slot: Int32, exit: Int32)
        /// Sets a `for`'s two temporaries back to null.
        case forEnd(items: Int32)
        /// Sets every temporary back to null: the end of a code with a `for`, which a
        /// `return` inside the loop reaches without passing the loop's end.
        case clearTemporaries
        /// Goes on at the index unless the place holds `true` (anything but a bool fails).
        case jumpUnless(Place, to: Int32)
        /// Goes on at the index (the end of the code ends the reducer).
        case jump(to: Int32)
        /// One of ``statements``, by the statement walker; a `return` in it ends the reducer.
        case statement(Int32)
    }

    let instructions: [Instruction]
    let keys: [String]
    let constants: [Value]
    let expressions: [Expr]
    let statements: [Stmt]
    let paths: [[PathStep]]
    /// The record literals: each field's key and the place of its value, in source order.
    let records: [[(key: Int32, value: Place)]]
    /// How many temporaries the code uses at most.
    let temporaryCount: Int
    /// Whether the code reads no variable but the action and writes none (see
    /// ``readsOnlyTheAction(_:records:paths:leavesNothingToTheWalker:)``): it then runs with
    /// no variables array.
    let readsOnlyTheAction: Bool

    /// Lowers a reducer's body; `slotCount` is the size of its frame.
    init(lowering body: [Stmt], slotCount: Int) {
        let lowered = ReducerLowering(body, slotCount: slotCount)
        instructions = lowered.instructions
        keys = lowered.keys
        constants = lowered.constants
        expressions = lowered.expressions
        statements = lowered.statements
        paths = lowered.paths
        records = lowered.records
        temporaryCount = lowered.temporaryCount
        readsOnlyTheAction = Self.readsOnlyTheAction(
            instructions, records: records, paths: paths,
            leavesNothingToTheWalker: expressions.isEmpty && statements.isEmpty)
    }
}
