import SagaCore
import SagaLanguage

/// One level of a task's continuation below its code (see ``SagaTask/code``).
///
/// Expressions never block, so a continuation is just where each caller's code is up to.
///
/// Every payload is at most two words (rare, bigger ones are boxed): frames are copied as
/// they are pushed, inspected and popped, and with a wide payload the outlined copies and
/// destroys would be a large part of a call's cost.
enum Frame {
    /// Compensations are running (last registered first), above the task's code; afterwards the
    /// pending completion goes on in it. `running` is the entry of the one running in
    /// ``Interpreter/compensationsRun`` (-1 before the first).
    indirect case compensating(remaining: [Compensation], pending: Completion, running: Int)
    /// A function called in the caller's task (see ``Code/runsInCallersTask``) runs above this
    /// frame; what the caller had is restored when it returns.
    case call(CallFrame)
}

extension Frame {
    /// Whether compensations are running in this frame.
    var isCompensating: Bool {
        if case .compensating = self { return true }
        return false
    }
}

/// What a caller had when it called a function inline: restored when the function returns
/// or an error leaves it.
final class CallFrame {
    /// The caller's variables; emptied when they are given back, so that the caller's
    /// array stays uniquely referenced (or each assignment after a call would copy it).
    var env: [Value]
    /// The caller's code, and where in it the caller goes on: past the call.
    let code: Code
    let pc: Int
    /// The room of the caller's temporaries (see ``SagaTask/temporaries``) and the `try`s its
    /// code stands in, kept here by ``SagaTask/enterCall(_:saving:)``.
    var temporaries: UnsafeMutablePointer<Value>?
    var tries: CodeTries?
    /// Where the caller wants the function's result.
    let target: ResultTarget
    /// The function, for stack traces (`func fetch`).
    let name: String
    /// The call site.
    let location: SourceLocation

    init(env: [Value], code: Code, pc: Int, target: ResultTarget, name: String, location: SourceLocation) {
        self.env = env
        self.code = code
        self.pc = pc
        self.target = target
        self.name = name
        self.location = location
    }

    deinit {
        // A frame dropped without its caller going back to it (the run ended) frees the room.
        guard let temporaries else { return }
        temporaries.deinitialize(count: code.roomCount)
        temporaries.deallocate()
    }
}

/// A registered `compensate` block with the variables it captured.
struct Compensation {
    var body: Block
    var env: [Value]
    var location: SourceLocation
}

/// How a block was left, past the code it stands in (a `break` or `continue` is a jump of
/// the code of its loop).
enum Completion {
    case normal
    case returnValue(Value)
    /// An error that `catch` may catch.
    case throwError(Failure)
    /// An attached child failed: `catch` does not catch this; finally blocks run.
    case abort(Failure)
    /// Cancellation: finally blocks run with `cancelled` true.
    case cancel
    /// END: a blocked `take` ends as if by `return`.
    case end
}
