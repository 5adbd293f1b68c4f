import SagaCore
import SagaLanguage

/// `try` and `transaction`.
///
/// A `try`'s body runs under a handler (see ``Code/Handler``): an error goes to its `catch`
/// block, compiled after it, and any way out it does not catch goes to a copy of its `finally`
/// block that ends with ``Code/Instruction/finallyEnd``, where that way out goes on. The
/// `finally` block is compiled as its copies: after the body, after the `catch` block (which
/// runs under a handler of its own when there is a `finally` block), for the ways out, and on
/// every `break`, `continue` or reducer's `return` that leaves the `try` (see
/// ``leaveTries(downTo:)``).
///
/// In a reducer the ways out are errors; in a saga they are also a `return`, cancellation, a
/// failed child and END, which the interpreter sends to the handlers it keeps with the code
/// (see ``CodeTries/handle(_:in:compensationRuns:)``).
///
/// The instructions of the statement's own (the ends of its blocks, the jumps past the
/// others, the ends of the `finally` copies) stand at the statement's line, which is where
/// `sagarun ast --compiled` lists them.
extension Compiler {
    /// `try { body } catch e { … } finally { … }`.
    mutating func compileTry(_ body: [Stmt], _ catchClause: CatchClause?, _ finally: [Stmt]?, next: Stmt?) {
        // The checker refuses a `try` with neither: it would run as one with an empty
        // `finally` block.
        let finally = finally ?? (catchClause == nil ? [] : nil)
        let at = location
        let clearsFrom = Int32(temporaryFloor)
        var exits: [Int] = []
        var bodyHandler = Code.Handler(target: -1, place: .temporary(0), clearsFrom: clearsFrom)
        let bodyIndex = newHandler()
        compileGuarded(body, by: bodyIndex, finally: finally, at: at)
        if let finally { compileFinally(finally, wayOut: false, at: at) }
        stepAfterBlock(next)
        location = at
        exits.append(emitJump())
        if let catchClause {
            guard isOwnSlot(catchClause.binding.slot) else {
                handlers[Int(bodyIndex)] = bodyHandler
                return unknownVariable(catchClause.binding.name)
            }
            bodyHandler.place = .slot(Int32(catchClause.binding.slot))
            bodyHandler.target = here
            if let finally {
                location = at
                let catchIndex = newHandler()
                compileGuarded(catchClause.body.statements, by: catchIndex, finally: finally, at: at)
                compileFinally(finally, wayOut: false, at: at)
                stepAfterBlock(next)
                location = at
                exits.append(emitJump())
                handlers[Int(catchIndex)] = Code.Handler(
                    target: -1, place: .temporary(0), clearsFrom: clearsFrom, finally: here)
                compileFinally(finally, wayOut: true, at: at)
            } else {
                compile(catchClause.body.statements)
                endStep()
                stepAfterBlock(next)
                location = at
                exits.append(emitJump())
            }
        }
        if let finally {
            bodyHandler.finally = here
            compileFinally(finally, wayOut: true, at: at)
        }
        handlers[Int(bodyIndex)] = bodyHandler
        for i in exits { instructions[i] = .jump(to: here) }
    }

    /// A copy of a `finally` block, then the step of its end.
    ///
    /// Its statements' temporaries start afresh. The copy that a way out runs (`wayOut`) ends
    /// with ``Code/Instruction/finallyEnd``, at the `try` statement's line `at`, and a jump out
    /// of it drops that way out.
    mutating func compileFinally(_ finally: [Stmt], wayOut: Bool, at: SourceLocation) {
        let saved = (temporariesInUse, location)
        if wayOut { tries.append(.finallyCopy) }
        compile(finally)
        if wayOut { tries.removeLast() }
        (temporariesInUse, location) = saved
        endStep()
        if wayOut {
            location = at
            emit(.finallyEnd)
        }
    }

    /// A saga's `transaction { body }`: left as a `try` without a `finally` block is, where
    /// ``Code/Instruction/tryEnd`` hands its compensations on.
    mutating func compileTransaction(_ body: [Stmt], next: Stmt?) {
        let index = newHandler()
        handlers[Int(index)] = Code.Handler(
            target: -1, place: .temporary(0), clearsFrom: Int32(temporaryFloor), compensates: true)
        compileGuarded(body, by: index, finally: nil, at: location)
        stepAfterBlock(next)
    }

    /// A block under handler `index`, a jump out of it running `finally`.
    ///
    /// ``Code/Instruction/tryBegin(_:)``, the block, the step of its end (still inside), then
    /// ``Code/Instruction/tryEnd`` at the statement's line `at`.
    private mutating func compileGuarded(_ block: [Stmt], by index: Int32, finally: [Stmt]?, at: SourceLocation) {
        emit(.tryBegin(index))
        tries.append(.tryBlock(finally: finally))
        compile(block)
        tries.removeLast()
        endStep()
        location = at
        emit(.tryEnd)
    }
}
