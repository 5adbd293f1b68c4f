import SagaCore
import SagaLanguage

/// A `take`'s `where` condition, compiled when its statement is: code over the taking task's
/// variables that reads the action, `it`, as the code's state (see
/// ``Interpreter/value(of:it:env:)``).
///
/// A condition that an index can key (see ``TakerIndex/keyedSides(of:)``) also has the code of
/// the action's path and of the value it is compared with, which its taker is kept under.
final class TakeCondition {
    /// The whole condition.
    let code: Code
    /// Where the condition is, where a failure to test it is reported.
    let location: SourceLocation
    /// The path of the action the condition compares (as the condition spells it, and as
    /// code over the action), and the code of the value it compares it with.
    let keyed: (path: Expr, pathCode: Code, fixed: Code)?

    /// The condition `condition` of a `take` whose task has `slotCount` variables.
    init(_ condition: Expr, slotCount: Int) {
        code = Code(expression: condition, slotCount: slotCount)
        location = condition.location
        keyed = TakerIndex.keyedSides(of: condition).map {
            ($0.path, Code(expression: $0.path, slotCount: 0), Code(expression: $0.fixed, slotCount: slotCount))
        }
    }
}
