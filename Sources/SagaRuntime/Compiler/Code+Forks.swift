import SagaLanguage

extension Code {
    /// Sets ``Site/takesNext`` on each `fork` statement after which the code only jumps and
    /// turns loops until it takes an action: the shape of `loop { let a = take P; fork { … } }`,
    /// written out or made by a watcher; and ``Site/childTakesTurnAtOnce`` on every other `fork`
    /// and on each `spawn`.
    static func findForksBeforeTakes(_ sites: [Site], _ instructions: [Instruction]) {
        for (pc, instruction) in instructions.enumerated() {
            let index: Int32
            switch instruction {
            case .statement(let site), .effect(let site): index = site
            default: continue
            }
            let site = sites[Int(index)]
            switch Compiler.effect(of: site.statement) {
            case .fork?:
                site.takesNext = takesNext(after: pc, instructions)
                site.childTakesTurnAtOnce = !site.takesNext
            case .spawn?:
                site.childTakesTurnAtOnce = true
            default:
                continue
            }
        }
    }

    /// Whether the code from instruction `pc` on comes to a `take` of an action with only jumps
    /// and loop turns before it.
    private static func takesNext(after pc: Int, _ instructions: [Instruction]) -> Bool {
        var next = pc + 1
        // A loop's back edge is a hop or two; a cycle of jumps alone reaches no `take`.
        for _ in 0..<8 {
            guard instructions.indices.contains(next) else { return false }
            switch instructions[next] {
            case .jump(let target), .stepAndJump(let target): next = Int(target)
            case .step: next += 1
            case .take: return true
            default: return false
            }
        }
        return false
    }
}
