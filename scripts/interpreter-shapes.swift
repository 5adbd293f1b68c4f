// Three shapes of interpreter for the same loop, to measure what the interpreter's design
// costs apart from everything else (issue 6: the interpreter targets need it 2-4x faster).
// The loop is `call`'s, less the call: `var i = 0; while i < n { let x = 1; i = i + x }`.
//
//   swiftc -O -wmo scripts/interpreter-shapes.swift -o /tmp/shapes
//   for shape in enum class flat; do
//     valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/shapes $shape 100000
//     valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/shapes $shape 200000
//   done   # (refs at 200,000 - refs at 100,000) / 100,000 = instructions per iteration
//
// 2026-11-22, Swift 6.3.1: enum 413, class 359, flat 149 instructions per iteration.
// - enum: the AST as the interpreter walks it today, boxed (`indirect`) enums; matching a
//   case retains its payload and releases it after.
// - class: final class nodes with `let` children and a method per node; reading a child of a
//   node the caller holds needs no retain.
// - flat: one array of instructions without references (jumps and slot numbers); constants
//   in a table.
// All three keep the variables in the same buffer (a pointer, no bounds or uniqueness checks),
// so that only the shape of the code differs; `Value` has cases with references, so that
// copying one is not a plain load.
// Not part of the package: a measurement to keep, and to run again when the design moves.

enum Value {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case list([Value])
}

// MARK: - Boxed enums, walked

indirect enum Expr {
    case literal(Value)
    case variable(Int)
    case less(Expr, Expr)
    case add(Expr, Expr)
}

indirect enum Stmt {
    case assign(Int, Expr)
    case whileLoop(Expr, [Stmt])
}

@inline(never) func evaluate(_ e: Expr, _ env: UnsafeMutablePointer<Value>) -> Value {
    switch e {
    case .literal(let v): return v
    case .variable(let slot): return env[slot]
    case .less(let a, let b):
        guard case .int(let x) = evaluate(a, env), case .int(let y) = evaluate(b, env) else { return .null }
        return .bool(x < y)
    case .add(let a, let b):
        guard case .int(let x) = evaluate(a, env), case .int(let y) = evaluate(b, env) else { return .null }
        return .int(x &+ y)
    }
}

@inline(never) func run(_ statements: [Stmt], _ env: UnsafeMutablePointer<Value>) {
    for statement in statements {
        switch statement {
        case .assign(let slot, let e): env[slot] = evaluate(e, env)
        case .whileLoop(let condition, let body):
            while case .bool(true) = evaluate(condition, env) { run(body, env) }
        }
    }
}

// MARK: - Class nodes

class ExprNode {
    func evaluate(_ env: UnsafeMutablePointer<Value>) -> Value { .null }
}

final class LiteralNode: ExprNode {
    let value: Value
    init(_ value: Value) { self.value = value }
    override func evaluate(_ env: UnsafeMutablePointer<Value>) -> Value { value }
}

final class VariableNode: ExprNode {
    let slot: Int
    init(_ slot: Int) { self.slot = slot }
    override func evaluate(_ env: UnsafeMutablePointer<Value>) -> Value { env[slot] }
}

final class LessNode: ExprNode {
    let a: ExprNode
    let b: ExprNode
    init(_ a: ExprNode, _ b: ExprNode) {
        self.a = a
        self.b = b
    }
    override func evaluate(_ env: UnsafeMutablePointer<Value>) -> Value {
        guard case .int(let x) = a.evaluate(env), case .int(let y) = b.evaluate(env) else { return .null }
        return .bool(x < y)
    }
}

final class AddNode: ExprNode {
    let a: ExprNode
    let b: ExprNode
    init(_ a: ExprNode, _ b: ExprNode) {
        self.a = a
        self.b = b
    }
    override func evaluate(_ env: UnsafeMutablePointer<Value>) -> Value {
        guard case .int(let x) = a.evaluate(env), case .int(let y) = b.evaluate(env) else { return .null }
        return .int(x &+ y)
    }
}

class StmtNode {
    func run(_ env: UnsafeMutablePointer<Value>) {}
}

final class AssignNode: StmtNode {
    let slot: Int
    let value: ExprNode
    init(_ slot: Int, _ value: ExprNode) {
        self.slot = slot
        self.value = value
    }
    override func run(_ env: UnsafeMutablePointer<Value>) { env[slot] = value.evaluate(env) }
}

final class WhileNode: StmtNode {
    let condition: ExprNode
    let body: [StmtNode]
    init(_ condition: ExprNode, _ body: [StmtNode]) {
        self.condition = condition
        self.body = body
    }
    override func run(_ env: UnsafeMutablePointer<Value>) {
        while case .bool(true) = condition.evaluate(env) {
            for statement in body { statement.run(env) }
        }
    }
}

// MARK: - Flat instructions

enum Instruction {
    case loadConstant(slot: Int, constant: Int)
    case less(slot: Int, a: Int, b: Int)
    case add(slot: Int, a: Int, b: Int)
    case jumpUnless(slot: Int, to: Int)
    case jump(to: Int)
    case halt
}

@inline(never) func run(_ code: [Instruction], _ constants: [Value], _ env: UnsafeMutablePointer<Value>) {
    code.withUnsafeBufferPointer { code in
        var pc = 0
        while true {
            switch code[pc] {
            case .loadConstant(let slot, let k):
                env[slot] = constants[k]
            case .less(let slot, let a, let b):
                if case .int(let x) = env[a], case .int(let y) = env[b] {
                    env[slot] = .bool(x < y)
                } else {
                    env[slot] = .null
                }
            case .add(let slot, let a, let b):
                if case .int(let x) = env[a], case .int(let y) = env[b] {
                    env[slot] = .int(x &+ y)
                } else {
                    env[slot] = .null
                }
            case .jumpUnless(let slot, let to):
                if case .bool(true) = env[slot] {
                } else {
                    pc = to
                    continue
                }
            case .jump(let to):
                pc = to
                continue
            case .halt:
                return
            }
            pc &+= 1
        }
    }
}

// MARK: - Main

let arguments = CommandLine.arguments
let shape = arguments.count > 1 ? arguments[1] : "enum"
let n = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
switch shape {
case "enum":
    let env = UnsafeMutablePointer<Value>.allocate(capacity: 2)
    env.initialize(repeating: .int(0), count: 2)
    let program: [Stmt] = [
        .whileLoop(
            .less(.variable(0), .literal(.int(n))),
            [.assign(1, .literal(.int(1))), .assign(0, .add(.variable(0), .variable(1)))])
    ]
    run(program, env)
    print(env[0])
case "class":
    let env = UnsafeMutablePointer<Value>.allocate(capacity: 2)
    env.initialize(repeating: .int(0), count: 2)
    let program = WhileNode(
        LessNode(VariableNode(0), LiteralNode(.int(n))),
        [AssignNode(1, LiteralNode(.int(1))), AssignNode(0, AddNode(VariableNode(0), VariableNode(1)))])
    program.run(env)
    print(env[0])
default:
    // Slots: 0 i, 1 x, 2 the condition, 3 n.
    let env = UnsafeMutablePointer<Value>.allocate(capacity: 4)
    env.initialize(repeating: .int(0), count: 4)
    let code: [Instruction] = [
        .loadConstant(slot: 3, constant: 0),
        .less(slot: 2, a: 0, b: 3),
        .jumpUnless(slot: 2, to: 6),
        .loadConstant(slot: 1, constant: 1),
        .add(slot: 0, a: 0, b: 1),
        .jump(to: 1),
        .halt,
    ]
    run(code, [.int(n), .int(1)], env)
    print(env[0])
}
