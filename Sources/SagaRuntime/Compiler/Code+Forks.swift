import SagaLanguage

extension Code {
    /// Sets ``Site/takesNext`` on each `fork` statement after which the code only jumps and
    /// turns loops until it takes an action: the shape of `loop { let a = take P; fork { … } }`,
    /// written out or made by a watcher; and ``Site/childTakesTurnAtOnce`` on every other `fork`
    /// and on each `spawn`, with ``Site/joinsNext`` on a `fork` the code then joins.
    static func findForksBeforeTakes(_ sites: [Site], _ instructions: [Instruction]) {
        for (pc, instruction) in instructions.enumerated() {
            let index: Int32
            switch instruction {
            case .statement(let site), .effect(let site), .forkBlock(let site): index = site
            default: continue
            }
            let site = sites[Int(index)]
            switch Compiler.effect(of: site.statement) {
            case .fork?:
                if let take = nextTake(after: pc, instructions) {
                    site.takesNext = true
                    site.nextTake = take
                }
                site.childTakesTurnAtOnce = !site.takesNext
                if !site.takesNext { site.joinsNext = joinsNext(after: pc, site, instructions) }
            case .spawn?:
                site.childTakesTurnAtOnce = true
            default:
                continue
            }
        }
    }

    /// Whether the code past the `fork` statement `site`, at instruction `pc`, only steps to a
    /// `join` of the variable the `fork` keeps its task in: `let t = fork { … }; join t`, as
    /// a `leading` watcher's loop does.
    private static func joinsNext(after pc: Int, _ site: Site, _ instructions: [Instruction]) -> Bool {
        guard let slot = slot(of: site.statement) else { return false }
        var next = pc + 1
        while instructions.indices.contains(next), case .step = instructions[next] { next += 1 }
        guard instructions.indices.contains(next) else { return false }
        guard case .joinTask(let joined, _, _) = instructions[next] else { return false }
        return Int(joined) == slot
    }

    /// The variable a statement's effect's value goes into, with no path.
    private static func slot(of statement: Stmt) -> Int? {
        switch statement {
        case .declare(let v, _, .effect, _): return v.slot
        case .assign(let target, .effect, _):
            guard target.path.isEmpty, case .variable(let v) = target.root else { return nil }
            return v.slot
        default: return nil
        }
    }

    /// The `take` of an action the code from instruction `pc` on comes to with only jumps and
    /// loop turns before it (its instruction and its index in ``Code/takes``), and the steps it
    /// takes to get there, the `take` included; `nil` where it comes to anything else first.
    private static func nextTake(
        after pc: Int, _ instructions: [Instruction]
    ) -> (pc: Int32, take: Int32, steps: Int32)? {
        var next = pc + 1
        var steps: Int32 = 0
        // A loop's back edge is a hop or two; a cycle of jumps alone reaches no `take`.
        for _ in 0..<8 {
            guard instructions.indices.contains(next) else { return nil }
            switch instructions[next] {
            case .jump(let target):
                next = Int(target)
            case .stepAndJump(let target):
                steps += 1
                next = Int(target)
            case .step:
                steps += 1
                next += 1
            case .take(let index):
                return (Int32(next), index, steps + 1)
            default:
                return nil
            }
        }
        return nil
    }

    /// Sets ``Site/handleIsHidden`` on each `fork` statement whose handle goes into `slot`, the
    /// hidden variable of the watcher whose loop this is (see ``SagaLanguage/WatcherLoop``).
    func markHiddenHandles(in slot: Int) {
        guard !hiddenHandlesMarked else { return }
        hiddenHandlesMarked = true
        for site in sites {
            guard case .fork? = Compiler.effect(of: site.statement), Self.slot(of: site.statement) == slot else {
                continue
            }
            site.handleIsHidden = true
        }
    }
}
