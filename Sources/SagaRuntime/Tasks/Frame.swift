import SagaCore
import SagaLanguage

/// One level of a task's continuation.
///
/// Expressions never block, so a continuation is just where each enclosing statement is up to.
/// The innermost running block is not a frame: see ``SagaTask/code``.
///
/// Every payload is at most two words (rare, bigger ones are boxed): frames are copied as
/// they are pushed, inspected and popped, and with a wide payload the outlined copies and
/// destroys would be a large part of a call's cost.
enum Frame {
    /// The rest of an enclosing block; the next statement to run is at the index.
    case block([Stmt], Int)
    /// A loop, `try` or `transaction` that runs from its code (see ``RunningCode``).
    case compiled(RunningCode)
    /// Compensations are running (last registered first); afterwards the pending completion goes on.
    indirect case compensating(remaining: [Compensation], pending: Completion)
    /// A function called inline (see ``InlineCalls``) runs above this frame; what the caller
    /// had is restored when it returns.
    case call(CallFrame)
}

/// What a caller had when it called a function inline: restored when the function returns
/// or an error leaves it.
final class CallFrame {
    /// The caller's variables; emptied when they are given back, so that the caller's
    /// array stays uniquely referenced (or each assignment after a call would copy it).
    var env: [Value]
    /// The rest of the caller's current block, and where in it the caller goes on: kept
    /// here rather than pushed as a `.block` frame under the call, which would take a frame
    /// push, a pop and a step of its own per call.
    var code: [Stmt]
    let pc: Int
    /// Where the caller wants the function's result.
    let target: ResultTarget
    /// The function, for stack traces (`func fetch`).
    let name: String
    /// The call site.
    let location: SourceLocation

    init(env: [Value], code: [Stmt], pc: Int, target: ResultTarget, name: String, location: SourceLocation) {
        self.env = env
        self.code = code
        self.pc = pc
        self.target = target
        self.name = name
        self.location = location
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

extension Frame {
    /// The next instruction of running code; `nil` for any other frame.
    ///
    /// Inlined, so that the frame is looked at where it is in the frames array: a call would
    /// copy it (a retain and a release of the running code).
    @inline(__always)
    var codePC: Int? {
        guard case .compiled(let running) = self else { return nil }
        return running.pc
    }

    /// Sets the next instruction of running code; does nothing to any other frame.
    ///
    /// Inlined, as ``codePC`` is.
    @inline(__always)
    func setCodePC(_ pc: Int) {
        guard case .compiled(let running) = self else { return }
        running.pc = pc
    }

    /// Whether two blocks are one array (its storage, not its elements, compared).
    @inline(__always)
    static func same(_ a: [Stmt], _ b: [Stmt]) -> Bool {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
