import SagaCore
import SagaLanguage

/// The places that running code reads and writes (see ``Code/Place``): its variables, its
/// temporaries, its constants and its calls' locals, each a buffer read by index with no
/// bounds check (every index in an instruction is one the compiler made).
///
/// Plain pointers, so that handing the places to an instruction's helper copies four words
/// and retains nothing.
struct CodePlaces {
    /// The variables: a saga task's, a reducer's, or, for code that reads only the action, the
    /// action alone as slot 0 (such code writes no variable).
    let slots: UnsafeMutablePointer<Value>
    let temporaries: UnsafeMutablePointer<Value>
    let constants: UnsafeMutablePointer<Value>
    /// The locals of the code's calls (see ``Code/Place/local(_:)``), null between calls.
    let locals: UnsafeMutablePointer<Value>

    /// Reads a place: a variable or a constant is copied, a temporary moved out (it is read
    /// once), so that none keeps a reference past its statement.
    @inline(__always)
    func read(_ place: Code.Place) -> Value {
        switch place {
        case .slot(let s):
            // An integer is made anew: a copy of a `Value` is an outlined call, even of one
            // that holds no reference.
            if case .int(let x) = slots[Int(s)] { return .int(x) }
            return slots[Int(s)]
        case .constant(let k):
            if case .int(let x) = constants[Int(k)] { return .int(x) }
            return constants[Int(k)]
        case .local(let l):
            if case .int(let x) = locals[Int(l)] { return .int(x) }
            return locals[Int(l)]
        case .temporary(let t):
            let value = (temporaries + Int(t)).move()
            (temporaries + Int(t)).initialize(to: .null)
            return value
        }
    }

    /// The integer a place holds, read where it is (no copy of a `Value`), or `nil`.
    ///
    /// A temporary read so must then be ``emptied(_:)``.
    @inline(__always)
    func integer(_ place: Code.Place) -> Int? {
        if case .int(let x) = self[place].pointee { return x }
        return nil
    }

    /// Empties a temporary read by ``integer(_:)``: it holds an integer, which needs no release.
    @inline(__always)
    func emptied(_ place: Code.Place) {
        if case .temporary(let t) = place { (temporaries + Int(t)).initialize(to: .null) }
    }

    /// Writes a place (a constant is never written).
    @inline(__always)
    func write(_ value: consuming Value, _ place: Code.Place) {
        switch place {
        case .slot(let s):
            // Over an integer, nothing is destroyed: an assignment would call the outlined
            // destroy of a `Value`.
            if case .int = slots[Int(s)] {
                (slots + Int(s)).initialize(to: value)
            } else {
                slots[Int(s)] = value
            }
        // A temporary is `.null` until written (it is left so when read), so nothing is there
        // to destroy: a plain assignment would call the outlined destroy of a `Value`.
        case .temporary(let t): (temporaries + Int(t)).initialize(to: value)
        // A local is null until written: its call sets it back to null when it returns.
        case .local(let l): (locals + Int(l)).initialize(to: value)
        case .constant: break
        }
    }

    /// Whether `lhs op rhs`, a comparison, holds: two integers are compared where they are.
    @inline(__always)
    func compare(_ op: BinaryOperator, _ lhs: Code.Place, _ rhs: Code.Place, _ ev: Evaluator) throws(SagaError) -> Bool
    {
        if let x = integer(lhs), let y = integer(rhs), case .bool(let b)? = Evaluator.integerBinary(op, x, y) {
            emptied(lhs)
            emptied(rhs)
            return b
        }
        // `x == null`, `x != null`: whether each side is null, looked at where it lies.
        switch op {
        case .equal, .notEqual:
            let leftIsNull = isNull(lhs)
            let rightIsNull = isNull(rhs)
            guard leftIsNull || rightIsNull else { break }
            // A temporary is read once: its value is let go of.
            if case .temporary = lhs { _ = read(lhs) }
            if case .temporary = rhs { _ = read(rhs) }
            let equal = leftIsNull && rightIsNull
            if case .equal = op { return equal }
            return !equal
        default:
            break
        }
        let a = read(lhs)
        return try Evaluator.truth(try ev.apply(op, a, read(rhs)))
    }

    /// Whether a place holds null, looked at where it lies.
    @inline(__always)
    func isNull(_ place: Code.Place) -> Bool {
        if case .null = self[place].pointee { return true }
        return false
    }

    /// Where a place's value lies, to be looked at or updated where it is.
    @inline(__always)
    subscript(place: Code.Place) -> UnsafeMutablePointer<Value> {
        switch place {
        case .slot(let s): return slots + Int(s)
        case .temporary(let t): return temporaries + Int(t)
        case .constant(let k): return constants + Int(k)
        case .local(let l): return locals + Int(l)
        }
    }

    /// Sets back to null what the `return`'s code of a call that failed may have left in its
    /// temporaries (not its locals: the call's statement then reads its arguments there).
    static func clear(after call: Code.ValueCall, _ temporaries: UnsafeMutablePointer<Value>, temporaryCount: Int) {
        for t in Int(call.clearsFrom)..<temporaryCount { temporaries[t] = .null }
    }
}
