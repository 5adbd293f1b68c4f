import SagaCore
import Testing

@testable import SagaLanguage

/// Slots are what the interpreter indexes its frames with: numbered per declaration, fresh
/// for every binding, shared with forked blocks.
@Suite("The checker numbers variable slots per declaration")
struct CheckerSlotTests {
    @Test func everyBindingOfAFunctionTakesTheNextFreshSlot() throws {
        let result = CheckerTests.compile(
            """
            func f(a, b) {
              let x = a + b
              for i in [1, 2] {
                var y = i
              }
              try { throw "e" } catch e { log e }
              fork { let z = x }
              every "t" as t { log t }
              let w = all for k in [1] { delay k }
              if true { let x = 1; log x }
              return x
            }
            """)
        let function = try #require(result.program?.functions.first)
        #expect(function.parameters.map(\.slot) == [0, 1])
        #expect(function.slotCount == 11)
        let body = function.body.statements

        // let x = a + b: a and b read slots 0 and 1; x takes 2.
        guard case .declare(let x, false, .expr(.binary(.add, .variable(let a), .variable(let b), _)), _) = body[0]
        else {
            Issue.record("unexpected \(body[0])")
            return
        }
        #expect([a.slot, b.slot, x.slot] == [0, 1, 2])

        guard case .for(let i, _, let forBody, _) = body[1],
            case .declare(let y, true, .expr(.variable(let iUse)), _) = forBody.statements[0]
        else {
            Issue.record("unexpected \(body[1])")
            return
        }
        #expect([i.slot, y.slot, iUse.slot] == [3, 4, 3])

        guard case .try(_, let catchClause?, nil, _) = body[2] else {
            Issue.record("unexpected \(body[2])")
            return
        }
        #expect(catchClause.binding.slot == 5)

        guard case .effect(.fork(.block(let forked), _), _) = body[3],
            case .declare(let z, _, .expr(.variable(let xInFork)), _) = forked.statements[0]
        else {
            Issue.record("unexpected \(body[3])")
            return
        }
        #expect([z.slot, xInFork.slot] == [6, 2])

        guard case .effect(.watcher(let watcher), _) = body[4] else {
            Issue.record("unexpected \(body[4])")
            return
        }
        #expect(watcher.binding.slot == 7)

        // The `all for` variable is met before `w`, whose value it computes.
        guard case .declare(let w, _, .effect(.allFor(let k, _, .delay(.variable(let kUse), _, _), _)), _) = body[5]
        else {
            Issue.record("unexpected \(body[5])")
            return
        }
        #expect([k.slot, kUse.slot, w.slot] == [8, 8, 9])

        // The inner x shadows the outer one with a slot of its own; the outer x is intact after.
        guard case .if(let arms, _, _) = body[6],
            case .declare(let innerX, _, _, _) = arms[0].body.statements[0],
            case .log(.variable(let innerUse), _) = arms[0].body.statements[1],
            case .return(.variable(let outerUse)?, _) = body[7]
        else {
            Issue.record("unexpected \(body[6])")
            return
        }
        #expect([innerX.slot, innerUse.slot, outerUse.slot] == [10, 10, 2])
    }

    /// A forked block's task holds only the first slots it needs: one past the highest slot
    /// it reads, writes or declares, its nested tasks' reads of the frame included.
    @Test func aForkedBlockNeedsTheSlotsUpToTheHighestItUses() throws {
        let result = CheckerTests.compile(
            """
            saga main {
              let a = 1
              let b = 2
              let c = 3
              fork { take "go" }
              spawn { log a }
              fork { log b; let d = 4; log d }
              fork { fork { log c } }
              fork { let e = 5; fork { log e } }
              fork { every "t" as t { log b; log t } }
              fork { let r = retry 2 call f(a) }
            }
            func f(x) { return x }
            """)
        let body = try #require(result.program?.sagas.first?.body.statements)
        func size(_ statement: Stmt) -> Int32? {
            switch statement {
            case .effect(.fork(.block(let block), _), _), .effect(.spawn(.block(let block), _), _):
                return block.frameSize
            default:
                return nil
            }
        }
        // a, b and c take slots 0, 1 and 2; d takes 3, e 4, t 5; the retry's loop its five
        // hidden variables, 6 to 10, and r 11.
        #expect(body[3...].map(size) == [0, 1, 4, 3, 5, 6, 12])
        guard case .effect(.fork(.block(let outer), _), _) = body[6], let inner = size(outer.statements[0])
        else {
            Issue.record("unexpected \(body[6])")
            return
        }
        #expect(inner == 3)
    }

    /// A forked block's task copies only the slots of the frame around it that it uses, its
    /// nested tasks' and watchers' included (`Block.capturedSlots`); a watcher's body, forked
    /// by its loop, copies its binding only where it reads it.
    @Test func aForkedBlockCapturesTheSlotsItUses() throws {
        let result = CheckerTests.compile(
            """
            saga main {
              let a = 1
              let b = 2
              let c = 3
              fork { take "go" }
              fork { log c; log a }
              fork { let d = 4; fork { log b; log d } }
              fork { every "t" as t { log c } }
              every "u" as u { log u; log a }
            }
            """)
        let body = try #require(result.program?.sagas.first?.body.statements)
        func captured(_ statement: Stmt) -> [Int32]? {
            switch statement {
            case .effect(.fork(.block(let block), _), _): return block.capturedSlots
            case .effect(.watcher(let watcher), _): return watcher.body.capturedSlots
            default: return nil
            }
        }
        // a, b and c take slots 0, 1 and 2; d takes 3; t 4; u 5.
        #expect(body[3...].map(captured) == [[], [0, 2], [1], [2], [0, 5]])
        guard case .effect(.fork(.block(let outer), _), _) = body[5], let inner = captured(outer.statements[1])
        else {
            Issue.record("unexpected \(body[5])")
            return
        }
        #expect(inner == [1, 3])
    }

    @Test func aReducersBindingTakesSlotZero() throws {
        let result = CheckerTests.compile(
            """
            reduce "add" as a {
              let by = a.by
              state.total = state.total + by
            }
            """)
        let reducer = try #require(result.program?.reducers.first)
        #expect(reducer.binding.slot == 0)
        #expect(reducer.slotCount == 2)
        guard case .declare(let by, _, _, _) = reducer.body.statements[0] else {
            Issue.record("unexpected \(reducer.body.statements[0])")
            return
        }
        #expect(by.slot == 1)
    }

    @Test func numberingStartsAgainInEachDeclaration() throws {
        let result = CheckerTests.compile(
            """
            saga first { let a = 1; let b = 2 }
            saga second { let c = 3 }
            saga empty { }
            """)
        let sagas = try #require(result.program?.sagas)
        #expect(sagas.map(\.slotCount) == [2, 1, 0])
        guard case .declare(let c, _, _, _) = sagas[1].body.statements[0] else {
            Issue.record("unexpected \(sagas[1].body.statements[0])")
            return
        }
        #expect(c.slot == 0)
    }

    @Test func calleesResolveToFunctionIndicesOrHostNames() throws {
        let result = CheckerTests.compile(
            """
            saga main {
              call second()
              fork first(1)
              spawn api.fetch()
            }
            func first(x) { }
            func second() { }
            """, hostFunctions: ["api.fetch"])
        let body = try #require(result.program?.sagas.first?.body.statements)
        guard case .effect(.call(.function(1, _), let arguments, _), _) = body[0], arguments.isEmpty,
            case .effect(.fork(.call(.function(0, _), _), _), _) = body[1],
            case .effect(.spawn(.call(.host("api.fetch", _), _), _), _) = body[2]
        else {
            Issue.record("unexpected \(body)")
            return
        }
    }
}
