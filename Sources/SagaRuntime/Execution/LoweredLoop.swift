import SagaCore
import SagaLanguage

/// A `while`, `for` or `loop` loop whose body only computes, or has effects in the body
/// itself.
///
/// Each statement stores an expression's value, or the value of a call of a one-`return`
/// function (see ``CallShape``), in a variable, or is `break`, `continue`, `return`, or an
/// `if` whose arms do only that (or hold such `if`s in turn); or, in the body (not in an arm),
/// a `log`, a `throw`, or a `take`, `put`, `select` or `delay` statement.
///
/// Such a loop is run by
/// ``Interpreter/runLoweredLoop(_:over:_:steps:yieldAfter:ran:resumingAt:)`` from a table of
/// plain steps, without the tree walk's statement switch, frames and reference counting, which
/// are most of the cost of a turn of a loop like `while i < n { let x = call one(); i = i + x
/// }` (less so of `loop { let a = take "ping"; put "pong" }`, where the store and the input
/// dominate).
///
/// Nothing a lowered step does can be seen before it succeeds: expressions have no effects,
/// and a step that would fail (an error, a call that must run inline or as a task, an injected
/// failure, a yield or the step limit due) is left to the tree walk, which runs that statement
/// as it always does. An effect is the walk's own: `take "t"` and a `put` of a literal action
/// do what their statements do (with the pattern and the action made once), and the other
/// statements are run by the walk's `executeStatement`, the task placed where the walk has it.
/// A task that blocks or yields in the body goes on lowered when it resumes
/// (``Interpreter/resumeLoweredLoop(_:steps:yieldAfter:ran:)``). A lowered loop therefore runs
/// exactly as the walked one: the same values, errors, steps, call numbers and yields.
final class LoweredLoop {
    /// What one step does.
    enum Kind: UInt8 {
        /// `let x = EXPR`, `var x = EXPR` or `x = EXPR`: the expression's value into `slot`.
        case store
        /// `let x = call f(…)` or `x = call f(…)` of a one-`return` function: its value into `slot`.
        case call
        /// An `if`: the first of its ``LoweredLoop/tests`` that holds sends the loop to its
        /// arm; if none does, to ``Step/next`` (the `else` arm, or past the `if`).
        case branch
        /// The end of an `if`'s arm: on to ``Step/next``, past the `if`. A step of its own
        /// (``Step/countsStep``) where the walk leaves the arm's block to go on in the body;
        /// none where the `if` ends the body, whose end is the loop's next turn.
        case armEnd
        /// `break`: leaves the loop.
        case breakLoop
        /// `continue`: on to the loop's next turn.
        case continueLoop
        /// `return` (its value the step's expression): leaves the function or saga.
        case returnValue
        /// A statement of the body with an effect, a `log` or a `throw` (see
        /// `LoweredLoopBuilder.isWalkedInPlace(_:)`): run by the walk's `executeStatement`
        /// where it stands, with the task placed as the walk has it. If it blocks, the task
        /// resumes here, at the next step (see
        /// ``Interpreter/resumeLoweredLoop(_:steps:yieldAfter:ran:)``).
        case statement
        /// `take "t"` (without `where`), on its own (``Step/slot`` -1) or stored: blocks the
        /// task on ``LoweredLoop/patterns`` at ``Step/operand``, as the statement does.
        case take
        /// `put "t"` or `put "t" {k: literal, …}`, on its own (``Step/slot`` -1) or stored:
        /// dispatches ``LoweredLoop/actions`` at ``Step/operand``, as the statement does.
        case put
    }

    /// One step, as plain data: read without a retain, and small (indices as 32 bits, the
    /// integer operations in a table of their own): with every field a word and the
    /// operation inline, copying a step out of the table would be a cost at every turn.
    struct Step {
        var kind: Kind
        /// Whether the call has arguments (so that a call without any reads no list).
        var hasArguments = false
        /// ``Kind/armEnd``: whether leaving the arm is a step (see there).
        var countsStep = false
        /// The variable written (``Kind/store``, ``Kind/call``).
        var slot: Int32 = -1
        /// The called function (``Kind/call``).
        var function: Int32 = -1
        /// Where the walk has this step: its statement's index in its block (the body, or an
        /// arm: ``arm``); an arm's length for ``Kind/armEnd``.
        var pc: Int32
        /// The arm this step is in (an index of ``LoweredLoop/arms``), or -1 for the body.
        var arm: Int32 = -1
        /// ``Kind/take`` and ``Kind/put``: the index of the pattern or the action. (It also
        /// keeps a step 36 bytes long: at 32, the optimiser copies a step out of the table
        /// another way, which makes every turn dearer.)
        var operand: Int32 = 0
        /// ``Kind/branch``: its tests in ``LoweredLoop/tests``, from here to ``testsEnd``.
        var testsStart: Int32 = 0
        var testsEnd: Int32 = 0
        /// ``Kind/branch``: the step when no test holds; ``Kind/armEnd``: the step past the `if`.
        var next: Int32 = -1
    }

    /// Where an arm's `if` is: in the body (`arm` -1) or in another arm, at `ifIndex`.
    struct ArmParent {
        var arm: Int32
        var ifIndex: Int32
    }

    /// An arm's condition, as plain data.
    struct Test {
        /// The condition, when it is `a op b` of integer variables or literals.
        var integer: IntegerOperation?
        /// The condition's index in ``LoweredLoop/conditions``.
        var condition: Int
        /// The arm's first step.
        var target: Int
    }

    /// A `while` loop's condition, as written (a `true` literal for `loop`; `nil` for a `for`
    /// loop).
    let condition: Expr?
    /// The condition, when it is `a op b` of integer variables or literals.
    let test: IntegerOperation?
    /// Whether the condition is the `true` literal (a `loop`): each turn goes on.
    let isEndless: Bool
    /// The body, as written: the block the tree walk runs when a step is left to it.
    let body: [Stmt]
    /// The `if` arms' blocks, as written, for a step left to the walk inside one.
    let arms: [[Stmt]]
    /// Per arm: where its `if` is.
    let armParents: [ArmParent]
    /// The steps: the body's statements in order, each `if` followed by its arms' steps.
    let steps: [Step]
    /// The `if` arms' conditions.
    let tests: [Test]
    let conditions: [Expr]
    /// Per step: the stored expression, when it is `a op b` of integer variables or literals.
    let integers: [IntegerOperation?]
    /// Per step: the stored expression (``Kind/store``; read only when it is not an integer
    /// operation), the called function's returned expression (``Kind/call``), or the returned
    /// one (``Kind/returnValue``; a `null` literal for a bare `return`).
    let expressions: [Expr]
    /// Per step: a call's arguments (read only when it has some).
    let arguments: [[Expr]]
    /// The patterns of ``Kind/take`` steps, and the actions of ``Kind/put`` steps.
    let patterns: [ActionPattern]
    let actions: [Value]
    /// Per statement of the body: its first step (where a task resumed there goes on: see
    /// ``Interpreter/resumeLoweredLoop(_:steps:yieldAfter:ran:)``).
    let bodySteps: [Int32]

    init(condition: Expr?, body: [Stmt], lowered: LoweredLoopBuilder) {
        self.condition = condition
        self.test = condition.flatMap(IntegerOperation.init)
        self.body = body
        self.arms = lowered.arms
        self.armParents = lowered.armParents
        self.steps = lowered.steps
        self.tests = lowered.tests
        self.conditions = lowered.conditions
        self.integers = lowered.integers
        self.expressions = lowered.expressions
        self.arguments = lowered.arguments
        self.bodySteps = lowered.bodySteps
        self.patterns = lowered.patterns
        self.actions = lowered.actions
        self.isEndless = condition.map(LoweredLoop.isTrue) ?? false
    }

    private static func isTrue(_ condition: Expr) -> Bool {
        if case .literal(.bool(true), _) = condition { return true }
        return false
    }

    /// The loop lowered, or `nil` if its body has a statement other than those above (or
    /// none at all).
    ///
    /// - Parameters:
    ///   - condition: a `while` loop's condition (a `true` literal for `loop`); `nil` for a
    ///     `for` loop.
    ///   - body: the loop's body.
    ///   - shapes: how each of the program's functions is called.
    /// - Returns: the lowered loop, or `nil` if it cannot be lowered.
    static func lower(condition: Expr?, body: [Stmt], shapes: [CallShape]) -> LoweredLoop? {
        guard !body.isEmpty, LoweredLoopBuilder.canLower(body, shapes: shapes) else { return nil }
        var builder = LoweredLoopBuilder(shapes: shapes)
        for (index, stmt) in body.enumerated() {
            guard builder.add(stmt, at: index, lastInBody: index == body.count - 1) else { return nil }
        }
        return LoweredLoop(condition: condition, body: body, lowered: builder)
    }
}
