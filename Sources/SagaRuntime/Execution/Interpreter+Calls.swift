import SagaCore
import SagaLanguage

/// `call`: a function of the program runs inline in the caller's task, is evaluated at the
/// call when its body is one `return`, or runs as an owned task (see
/// ``Code/runsInCallersTask(_:handlers:sites:)``, ``Code/returnedValues(of:)``); a host
/// function is started in the host call table.
extension Interpreter {
    /// `call`: runs a function of the program (inline, as a value, or as an owned task the
    /// caller waits for) or starts a host function.
    func call(
        _ callee: Callee, _ args: [Value], _ task: SagaTask, _ loc: SourceLocation
    ) throws(SagaError) -> EffectResult {
        do {
            try countCall(callee, at: loc)
        } catch {
            // A mocked function is told, so that the line this call would have taken does not
            // hold up the calls after it (see ``HostMocks``).
            switch callee {
            case .host(let name, _), .named(let name, _): host.madeToFail[name]?(args)
            case .function: break
            }
            throw error
        }
        return try callCounted(callee, args, task, loc)
    }

    /// `call`, once counted (see ``countCall(_:at:)``).
    func callCounted(
        _ callee: Callee, _ args: [Value], _ task: SagaTask, _ loc: SourceLocation
    ) throws(SagaError) -> EffectResult {
        switch callee {
        case .function(let index, _):
            guard task.callDepth < options.maxCallDepth else {
                throw SagaError(
                    kind: "RangeError",
                    message: "calls nest more than \(options.maxCallDepth) deep (an endless recursion?); "
                        + "raise the limit with --max-call-depth")
            }
            if task.native == nil {
                if let runTrace { runTrace.call(task, index, args) }
                // A function whose body is one `return` runs inline too where the statement
                // runs (the code makes the calls it can itself; see ``Code/ValueCall``).
                let code = self.code(of: program.functions[index].body, slotCount: frameSizes[index])
                if code.runsInCallersTask {
                    enterInline(index, code, args, task, loc)
                    return .entered
                }
            }
            try reserveTasks(1)
            let child = try functionTask(index, args, kind: .owned, parent: task, at: loc)
            child.callDepth = task.callDepth + 1
            child.owner = .caller(task)
            block(task, on: .task(child))
            scheduler.schedule(child)
            return .suspended
        case .host(let name, _):
            guard let function = host[name] else {
                throw SagaError.noHostFunction(name, in: program)
            }
            block(task, on: .host(0))
            task.wait = .host(startHostCall(name, function, args, task))
            return .suspended
        case .named(let name, _):
            throw SagaError(kind: "HostError", message: "unknown function '\(name)'")
        }
    }

    /// Starts a call of the host function `name` for `task`; the call's id.
    ///
    /// A function that answers at the call (a mock's line, see ``HostFunctions``) is asked
    /// now, so that concurrent calls take their answers in the order the sagas make them; its
    /// result is then awaited as any other's.
    func startHostCall(
        _ name: String, _ function: @escaping HostFunctions.Function, _ args: [Value], _ task: SagaTask
    ) -> Int {
        guard let answer = host.answers[name] else {
            return hostCalls.start(function, args, task: task, token: task.token)
        }
        let outcome = answer(args)
        return hostCalls.start({ _ in try outcome.get() }, args, task: task, token: task.token)
    }

    /// Runs a function in the caller's task: the caller's variables, code and result target
    /// are kept in a call frame, and the task runs the function's code.
    private func enterInline(_ index: Int, _ code: Code, _ args: [Value], _ task: SagaTask, _ loc: SourceLocation) {
        let env = frame(index, args)
        let frame = CallFrame(
            env: task.env, code: task.code, pc: task.pc, target: task.target, name: functionTaskNames[index],
            location: loc)
        task.env = env
        task.target = .discard
        task.enterCall(code, saving: frame)
        task.callDepth += 1
    }

    /// `let x = call f(…)` or `x = call f(…)` of a function of the program, run where the
    /// statement is: the value goes into the slot.
    ///
    /// The code makes such a call of a function whose body is `return EXPR` itself (see
    /// ``Code/ValueCall``); the statement runs where the code cannot, or where its `return`
    /// failed, which then fails again as the function runs inline, reported with its frame.
    func callIntoSlot(
        _ slot: Int, _ index: Int, _ operands: EffectOperands, _ task: SagaTask, _ loc: SourceLocation
    ) throws(SagaError) -> Step {
        let callee = Callee.function(index, loc)
        let args = operands.all
        try countCall(callee, at: loc)
        // callCounted traces the call.
        task.target = .slot(slot)
        return runEffectResult(try callCounted(callee, args, task, loc), task)
    }

    /// Numbers a call, and throws the injected failure if it is the one to fail.
    ///
    /// Inlined, with the failure made out of line: a call of its own just for the count would
    /// cost more than the count.
    @inline(__always)
    func countCall(_ callee: Callee, at loc: SourceLocation) throws(SagaError) {
        let number = callsMade
        callsMade += 1
        guard options.failingCall == number else { return }
        throw injectedFailure(callee, number, at: loc)
    }

    /// The failure injected into call `number` (counted from 0).
    private func injectedFailure(_ callee: Callee, _ number: Int, at loc: SourceLocation) -> SagaError {
        let name: String
        switch callee {
        case .function(let i, _): name = i >= 0 && i < program.functions.count ? program.functions[i].name : "?"
        case .host(let n, _), .named(let n, _): name = n
        }
        injectedFailureCall = "\(name) at \(describe(loc))"
        return SagaError(
            kind: "InjectedFailure", message: "injected failure of call #\(number + 1) (\(name) at \(describe(loc)))")
    }

    /// A task running function `index` with `args` (a call that cannot run inline, or a fork).
    func functionTask(
        _ index: Int, _ args: [Value], kind: SagaTask.Kind, parent: SagaTask, at loc: SourceLocation
    ) throws(SagaError) -> SagaTask {
        guard index >= 0, index < program.functions.count else {
            throw SagaError.typeError("unknown function")
        }
        let function = program.functions[index]
        let env = frame(index, args)
        return newTask(
            name: functionTaskNames[index], location: loc, kind: kind, parent: parent, env: env,
            body: function.body)
    }

    /// The variables of a call of function `index`: its arguments in the first slots, then
    /// nulls (no array at all for a function with no variables; the arguments' own array
    /// when they are all its variables, as in `func add(a, b) { return a + b }`).
    @inline(__always)
    private func frame(_ index: Int, _ args: [Value]) -> [Value] {
        let size = frameSizes[index]
        guard size > 0 else { return [] }
        if args.count == size { return args }
        return filledFrame(size, args)
    }

    private func filledFrame(_ size: Int, _ args: [Value]) -> [Value] {
        var env = [Value](repeating: .null, count: size)
        for i in 0..<min(args.count, size) { env[i] = args[i] }
        return env
    }
}
