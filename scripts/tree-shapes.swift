// Two shapes of syntax tree for parse-and-check's 10 MB file, to measure what the tree's
// shape costs apart from the lexer and the parser's logic (issue 6: parse-and-check holds
// 50 MB/s only in a fast hour, and a third of its CPU time is the kernel's, for the tree's
// pages).
//
//   swiftc -O -wmo scripts/tree-shapes.swift -o /tmp/tree-shapes
//   for shape in boxed flat names; do /tmp/tree-shapes $shape 48000; done
//
// Each run builds, in one thread, as many blocks of nodes as the generated file has blocks of
// its two declarations (a function and a saga with a watcher, about 207 bytes of source each;
// 48,000 make the 10 MB file), walks every node as a checker would, and prints the time of
// each phase, the minor page faults and the resident memory.
// - boxed: the AST as the parser makes it today, boxed (`indirect`) enums with a location in
//   each node, a `String` name in each variable, and an array for each list of children.
// - flat: one array of nodes (a kind, a location, a payload, the range of its children in an
//   array of child indices), literals and names in tables.
// Not part of the package: a measurement to keep, and to run again when the design moves.
//
// 2026-11-24, Swift 6.3.1, 48,000 blocks, median of 3 runs (a fast hour):
// - boxed: build 77 ms, walk 23 ms, free 34 ms; 31,900 page faults, 132 MB.
// - flat: build 56 ms, walk 1 ms, free 4.4 ms; 17,500 page faults, 52 MB (21 bytes a node,
//   arrays reserved for 60 nodes a block; the nodes' places packed in 4 bytes).
// - names: 3 ms of each build is making the names that differ from block to block.

#if canImport(Glibc)
import Glibc
#endif

struct Location {
    var file: Int32
    var line: Int32
    var column: Int32
}

enum Value {
    case null
    case int(Int)
    case string(String)
}

// MARK: - Boxed enums

struct Variable {
    var name: String
    var slot: Int
    var location: Location
    var nameID: Int32
}

indirect enum Expr {
    case literal(Value, Location)
    case variable(Variable)
    case binary(UInt8, Expr, Expr, Location)
    case member(Expr, String, Location)
    case list([Expr], Location)
    case record([(String, Expr)], Location)
    case interpolation([Expr], Location)
}

indirect enum Stmt {
    case declare(Variable, Expr, Location)
    case declareCall(Variable, String, [Expr], Location)
    case ifElse(Expr, [Stmt], [Stmt], Location)
    case ret(Expr, Location)
    case every(Expr, Variable, [Stmt], Location)
    case put(Expr, Expr, Location)
}

struct Function {
    var name: String
    var parameters: [Variable]
    var body: [Stmt]
}

func at(_ line: Int, _ column: Int32) -> Location {
    Location(file: 0, line: Int32(truncatingIfNeeded: line), column: column)
}

func variable(_ name: String, _ slot: Int, _ line: Int, _ column: Int32) -> Expr {
    .variable(Variable(name: name, slot: slot, location: at(line, column), nameID: Int32(slot)))
}

/// One block: `func fK(a, b) { let x = a + b * 2; if x > 10 { return x } else { return [x,
/// "s\(x)", {k: x}] } }` and `saga sK { every "tK/*" as act { let r = call fK(act.n, 2);
/// put "done" { r: r } } }`.
func boxedBlock(_ k: Int) -> (Function, Function) {
    let line = k &* 11
    let declareX = Stmt.declare(
        Variable(name: "x", slot: 2, location: at(line + 1, 7), nameID: 2),
        .binary(
            0, variable("a", 0, line + 1, 11),
            .binary(1, variable("b", 1, line + 1, 15), .literal(.int(2), at(line + 1, 19)), at(line + 1, 15)),
            at(line + 1, 11)),
        at(line + 1, 3))
    let test = Expr.binary(2, variable("x", 2, line + 2, 6), .literal(.int(10), at(line + 2, 10)), at(line + 2, 6))
    let listed = Expr.list(
        [
            variable("x", 2, line + 2, 40),
            .interpolation(
                [.literal(.string("s"), at(line + 2, 43)), variable("x", 2, line + 2, 47)], at(line + 2, 43)),
            .record([("k", variable("x", 2, line + 2, 55))], at(line + 2, 51)),
        ], at(line + 2, 39))
    let ifElse = Stmt.ifElse(
        test, [.ret(variable("x", 2, line + 2, 22), at(line + 2, 15))], [.ret(listed, at(line + 2, 32))],
        at(line + 2, 3))
    let function = Function(
        name: "f\(k)",
        parameters: [
            Variable(name: "a", slot: 0, location: at(line, 9), nameID: 0),
            Variable(name: "b", slot: 1, location: at(line, 12), nameID: 1),
        ],
        body: [declareX, ifElse])
    let call = Stmt.declareCall(
        Variable(name: "r", slot: 1, location: at(line + 6, 9), nameID: 3), "f\(k)",
        [.member(variable("act", 0, line + 6, 22), "n", at(line + 6, 22)), .literal(.int(2), at(line + 6, 29))],
        at(line + 6, 5))
    let put = Stmt.put(
        .literal(.string("done"), at(line + 7, 9)), .record([("r", variable("r", 1, line + 7, 21))], at(line + 7, 16)),
        at(line + 7, 5))
    let every = Stmt.every(
        .literal(.string("t\(k)/*"), at(line + 5, 9)),
        Variable(name: "act", slot: 0, location: at(line + 5, 19), nameID: 4),
        [call, put], at(line + 5, 3))
    return (function, Function(name: "s\(k)", parameters: [], body: [every]))
}

@inline(never) func walk(_ e: Expr) -> Int {
    switch e {
    case .literal: return 1
    case .variable(let v): return v.slot &+ 1
    case .binary(_, let a, let b, _): return walk(a) &+ walk(b)
    case .member(let base, _, _): return walk(base)
    case .list(let items, _), .interpolation(let items, _): return items.reduce(0) { $0 &+ walk($1) }
    case .record(let fields, _): return fields.reduce(0) { $0 &+ walk($1.1) }
    }
}

@inline(never) func walk(_ statements: [Stmt]) -> Int {
    var sum = 0
    for statement in statements {
        switch statement {
        case .declare(let v, let e, _): sum &+= v.slot &+ walk(e)
        case .declareCall(let v, _, let arguments, _): sum &+= v.slot &+ arguments.reduce(0) { $0 &+ walk($1) }
        case .ifElse(let test, let then, let otherwise, _): sum &+= walk(test) &+ walk(then) &+ walk(otherwise)
        case .ret(let e, _): sum &+= walk(e)
        case .every(let pattern, let v, let body, _): sum &+= walk(pattern) &+ v.slot &+ walk(body)
        case .put(let a, let b, _): sum &+= walk(a) &+ walk(b)
        }
    }
    return sum
}

// MARK: - Flat arrays

struct FlatTree {
    enum Kind: UInt8 {
        case literal, variable, binary, member, list, record, interpolation
        case declare, declareCall, ifElse, ret, every, put, block, function
    }
    var kinds: [Kind] = []
    /// Each node's place, 4 bytes (a parser would keep the byte offset, and find the line and
    /// column only for a diagnostic).
    var locations: [UInt32] = []
    /// A literal's index in `literals`, a variable's slot, an operator, a name's number.
    var payloads: [Int32] = []
    /// Where each node's children start in `children`, and how many it has.
    var firstChild: [Int32] = []
    var childCount: [Int32] = []
    var children: [Int32] = []
    var literals: [Value] = []
    var names: [String] = []

    init(capacity: Int) {
        kinds.reserveCapacity(capacity)
        locations.reserveCapacity(capacity)
        payloads.reserveCapacity(capacity)
        firstChild.reserveCapacity(capacity)
        childCount.reserveCapacity(capacity)
        children.reserveCapacity(capacity)
    }

    /// Appends a node whose children (made before it, as a parser makes them) are the
    /// `count` first of `a`, `b`, `c`. (A variadic list would be an array, an allocation, each.)
    mutating func node(
        _ kind: Kind, _ location: Location, _ payload: Int32 = 0, count: Int32 = 0, _ a: Int32 = 0, _ b: Int32 = 0,
        _ c: Int32 = 0
    ) -> Int32 {
        let index = Int32(truncatingIfNeeded: kinds.count)
        kinds.append(kind)
        // The byte offset a parser would keep; here the line and column, packed.
        locations.append(UInt32(truncatingIfNeeded: location.line) << 8 | UInt32(truncatingIfNeeded: location.column))
        payloads.append(payload)
        firstChild.append(Int32(truncatingIfNeeded: children.count))
        childCount.append(count)
        if count > 0 { children.append(a) }
        if count > 1 { children.append(b) }
        if count > 2 { children.append(c) }
        return index
    }

    mutating func literal(_ value: Value, _ location: Location) -> Int32 {
        literals.append(value)
        return node(.literal, location, Int32(truncatingIfNeeded: literals.count - 1))
    }

    mutating func name(_ text: String) -> Int32 {
        names.append(text)
        return Int32(truncatingIfNeeded: names.count - 1)
    }

    /// The same block as ``boxedBlock(_:)``.
    mutating func block(_ k: Int) {
        let line = k &* 11
        let a = node(.variable, at(line + 1, 11), 0)
        let b = node(.variable, at(line + 1, 15), 1)
        let two = literal(.int(2), at(line + 1, 19))
        let product = node(.binary, at(line + 1, 15), 1, count: 2, b, two)
        let sum = node(.binary, at(line + 1, 11), 0, count: 2, a, product)
        let declareX = node(.declare, at(line + 1, 3), 2, count: 1, sum)
        let x1 = node(.variable, at(line + 2, 6), 2)
        let ten = literal(.int(10), at(line + 2, 10))
        let test = node(.binary, at(line + 2, 6), 2, count: 2, x1, ten)
        let x2 = node(.variable, at(line + 2, 22), 2)
        let then = node(.block, at(line + 2, 13), 0, count: 1, node(.ret, at(line + 2, 15), 0, count: 1, x2))
        let x3 = node(.variable, at(line + 2, 40), 2)
        let s = literal(.string("s"), at(line + 2, 43))
        let x4 = node(.variable, at(line + 2, 47), 2)
        let text = node(.interpolation, at(line + 2, 43), 0, count: 2, s, x4)
        let x5 = node(.variable, at(line + 2, 55), 2)
        let record = node(.record, at(line + 2, 51), name("k"), count: 1, x5)
        let listed = node(.list, at(line + 2, 39), 0, count: 3, x3, text, record)
        let otherwise = node(.block, at(line + 2, 30), 0, count: 1, node(.ret, at(line + 2, 32), 0, count: 1, listed))
        let ifElse = node(.ifElse, at(line + 2, 3), 0, count: 3, test, then, otherwise)
        let parameterA = node(.variable, at(line, 9), 0)
        let parameterB = node(.variable, at(line, 12), 1)
        let body = node(.block, at(line, 15), 0, count: 2, declareX, ifElse)
        _ = node(.function, at(line, 1), name("f\(k)"), count: 3, parameterA, parameterB, body)
        let act = node(.variable, at(line + 6, 22), 0)
        let member = node(.member, at(line + 6, 22), name("n"), count: 1, act)
        let two2 = literal(.int(2), at(line + 6, 29))
        let call = node(.declareCall, at(line + 6, 5), name("f\(k)"), count: 2, member, two2)
        let done = literal(.string("done"), at(line + 7, 9))
        let r = node(.variable, at(line + 7, 21), 1)
        let fields = node(.record, at(line + 7, 16), name("r"), count: 1, r)
        let put = node(.put, at(line + 7, 5), 0, count: 2, done, fields)
        let pattern = literal(.string("t\(k)/*"), at(line + 5, 9))
        let every = node(
            .every, at(line + 5, 3), 0, count: 2, pattern, node(.block, at(line + 5, 25), 0, count: 2, call, put))
        _ = node(.function, at(line + 4, 1), name("s\(k)"), count: 1, node(.block, at(line + 4, 8), 0, count: 1, every))
    }

    /// Every node, children first: what a check that reads each node once costs.
    @inline(never) func walk() -> Int {
        var sum = 0
        for index in kinds.indices {
            switch kinds[index] {
            case .variable, .declare: sum &+= Int(payloads[index]) &+ 1
            case .literal: sum &+= 1
            default: sum &+= Int(childCount[index])
            }
        }
        return sum
    }
}

// MARK: - Measuring

func minorFaults() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_minflt
}

func residentMB() -> Double {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, 128, file) != nil else { return 0 }
    let fields = String(cString: line).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return Double(pages * Int(sysconf(Int32(_SC_PAGESIZE)))) / 1e6
}

func milliseconds(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

let arguments = CommandLine.arguments
let shape = arguments.count > 1 ? arguments[1] : "boxed"
let blocks = arguments.count > 2 ? Int(arguments[2]) ?? 48_000 : 48_000
let faultsBefore = minorFaults()
let residentBefore = residentMB()
var checksum = 0
switch shape {
case "names":
    // What both shapes spend making the names and strings that differ from block to block.
    let build = milliseconds {
        for k in 0..<blocks { checksum &+= "f\(k)".utf8.count &+ "s\(k)".utf8.count &+ "t\(k)/*".utf8.count }
    }
    print("names alone: \(build) ms; \(checksum % 2)")
case "flat":
    var tree = FlatTree(capacity: blocks * 60)
    let build = milliseconds { for k in 0..<blocks { tree.block(k) } }
    let faults = minorFaults() - faultsBefore
    let resident = residentMB() - residentBefore
    let check = milliseconds { checksum = tree.walk() }
    let free = milliseconds { tree = FlatTree(capacity: 0) }
    print(
        "flat: build \(build) ms, walk \(check) ms, free \(free) ms; \(faults) page faults, \(resident) MB; \(tree.kinds.count + checksum % 2) "
    )
default:
    var program: [(Function, Function)] = []
    program.reserveCapacity(blocks)
    let build = milliseconds { for k in 0..<blocks { program.append(boxedBlock(k)) } }
    let faults = minorFaults() - faultsBefore
    let resident = residentMB() - residentBefore
    let check = milliseconds {
        for (function, saga) in program {
            checksum &+= walk(function.body) &+ function.parameters.count &+ walk(saga.body)
        }
    }
    let free = milliseconds { program = [] }
    print(
        "boxed: build \(build) ms, walk \(check) ms, free \(free) ms; \(faults) page faults, \(resident) MB; \(program.count + checksum % 2)"
    )
}
