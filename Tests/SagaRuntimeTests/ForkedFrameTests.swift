import SagaCore
import Testing

/// A `fork` or `spawn` block's task holds a copy of only the first slots of its parent's frame
/// that it uses (see `Block.frameSize`): whatever it reads, at any depth, keeps the value it
/// had when the task started.
@Suite("Forked blocks see the variables they use")
struct ForkedFrameTests {
    @Test func nestedTasksReadTheVariablesOfEveryEnclosingFrame() async {
        let run = await runSaga(
            """
            saga main {
              var a = "a"
              let b = "b"
              let unused = "u"
              fork { take "go"; log "first" }
              fork {
                let c = "c"
                fork {
                  take "go"
                  log a + b + c
                  spawn { log b + c }
                }
              }
              fork { fork { take "go"; log b } }
              a = "changed"
              for i in range(2) {
                fork {
                  let doubled = i * 2
                  take "go"
                  log [i, doubled]
                }
              }
              log unused
            }
            """, input: [#"{"type":"go"}"#])
        #expect(run.errors == [])
        #expect(run.lines == ["u", "first", "abc", "bc", "b", "[0,0]", "[1,2]"])
    }

    /// A block's task holds the slots its block uses but not those its nested blocks declare:
    /// a nested block's own variables get slots of their own all the same.
    @Test func aBlockNestedInABlockDeclaresVariablesOfItsOwn() async {
        let run = await runSaga(
            """
            saga main {
              fork {
                fork {
                  let x = 1
                  log "got \\(x)"
                }
                spawn {
                  for i in range(2) { let y = take "go"; log [i, y.n] }
                }
              }
              transaction {
                compensate { fork { let z = "z"; log z } }
                throw "undo"
              }
            }
            """, input: [#"{"type":"go","n":1}"#, #"{"type":"go","n":2}"#])
        #expect(run.lines == ["got 1", "z", "[0,1]", "[1,2]"])
    }

    /// A watcher's hidden variable has a slot of its own, apart from the binding's, however
    /// few slots the block's task around it holds.
    @Test func watchersInABlockNestedInABlockKeepTheirHiddenVariables() async {
        let run = await runSaga(
            """
            saga main {
              fork {
                fork {
                  latest "x" as a { delay 5; log a.n }
                  debounce 3 "y" as b { log b.n }
                }
              }
            }
            """,
            input: [
                #"{"type":"x","n":1}"#, #"{"type":"x","n":2}"#, #"{"type":"y","n":3}"#, #"{"type":"y","n":4}"#,
            ])
        #expect(run.errors == [])
        #expect(run.lines == ["4", "2"])
    }

    @Test func effectsThatBuildHiddenVariablesRunInAForkedBlock() async {
        let run = await runSaga(
            """
            saga main {
              let limit = 2
              let label = "n"
              fork {
                let n = retry 3 call tries(limit)
                let both = all { x: call tries(1), y: delay 1ms label }
                let first = race { slow: delay 10ms, fast: delay 1ms label }
                every "x" as x { log [label, x.n, n, both.x, both.y, first.fast] }
                latest "y" as y { log y.n + limit }
              }
            }
            func tries(x) { return x * 10 }
            """, input: [#"{"at":20,"action":{"type":"x","n":1}}"#, #"{"at":30,"action":{"type":"y","n":5}}"#])
        #expect(run.errors == [])
        #expect(run.lines == [#"["n",1,20,10,"n","n"]"#, "7"])
    }

    /// A block copies only the variables it uses, wherever they stand in the frame (see
    /// `Block.capturedSlots`): those it skips, before or between them, do not shift what it
    /// reads, and a watcher's body sees its binding and the variables around it.
    @Test func aBlockReadsTheVariablesItUsesWhereverTheyStand() async {
        let run = await runSaga(
            """
            saga main {
              let skipped = "s"
              let first = "f"
              let between = "b"
              let last = "l"
              fork { take "go"; log first + last }
              every "go" as g { log [g.n, last] }
              latest "go" as h { log h.n }
              fork {
                let own = "o"
                leading "go" as k { log "\\(first)\\(own)\\(k.n)" }
              }
              log skipped + between
            }
            """, input: [#"{"type":"go","n":1}"#])
        #expect(run.errors == [])
        #expect(run.lines == ["sb", "fl", "[1,\"l\"]", "1", "fo1"])
    }
}
