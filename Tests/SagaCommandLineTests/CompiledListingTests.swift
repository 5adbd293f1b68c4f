import Foundation
import Testing

/// `sagarun ast --compiled`: each reducer's instructions, and the code of each saga, function
/// and body they start (its short-turn watchers named), with the source lines they come from.
@Suite struct CompiledListingTests {
    static let program = """
        state { count: 0 }

        reduce "add" as a {
          state.count = state.count + a.by
        }

        saga main {
          every "ping" as p {
            put "pong"
          }
          loop {
            let x = take "go"
            put "went" {n: 1}
          }
        }

        saga other {
          var i = 0
          while i < 3 { i = i + 1; if i == 2 { log "two" } }
        }
        """

    func listing(_ source: String) async throws -> (code: Int32, out: String, err: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("listing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.saga")
        try source.write(to: file, atomically: true, encoding: .utf8)
        return await runSagarun(["ast", file.path, "--compiled"])
    }

    @Test func aReducersCounterUpdateIsOneInstructionInPlace() async throws {
        let r = try await listing(Self.program)
        #expect(r.code == 0)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "reducer on \"add\" at 3:1: 3 instructions, 2 temporaries")
        #expect(lines.contains("  ; 4: state.count = state.count + a.by"))
        #expect(lines.contains("  1  4:3     t1 = a.by"))
        #expect(lines.contains("  2  4:3     state.count += t1 in place (else t0 + t1)"))
    }

    @Test func aLoopOfTakeAndPutIsCompiledAndAWatcherRunsItsLoop() async throws {
        let r = try await listing(Self.program)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("saga main at 7:1: compiled, 6 instructions"))
        // The watcher's loop, whose `fork` starts its body.
        #expect(lines.contains("  every at 8:3, its loop: compiled, 5 instructions"))
        #expect(lines.contains("    2  8:3     step; take \"ping\" into p"))
        #expect(lines.contains("    3  8:3     step; start (fork {(put \"pong\")}) in the code"))
        #expect(lines.contains("    4  8:3     step, goto 2"))
        #expect(lines.contains("    fork block at 8:3: compiled, 1 instruction"))
        #expect(lines.contains("      0  9:5     step; put {\"type\":\"pong\"}"))
        #expect(lines.contains("  ; 12: let x = take \"go\""))
        #expect(lines.contains("  3  12:5    step; take \"go\" into x"))
        #expect(lines.contains("  4  13:5    step; put {\"n\":1,\"type\":\"went\"}"))
        #expect(lines.contains("  5  12:5    step, goto 3"))
    }

    @Test func aLoopWithAnIfIsCompiledWithTheStepsTheWalkTakes() async throws {
        let r = try await listing(Self.program)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("saga other at 17:1: compiled, 12 instructions"))
        #expect(lines.contains("   4  19:9    unless i < 3: goto 12"))
        #expect(lines.contains("   6  19:17   i += 1 in place"))
        #expect(lines.contains("   8  19:28   unless i == 2: goto 11"))
        #expect(lines.contains("   9  19:40   step"))
        #expect(lines.contains("  10  19:40   log \"two\""))
        // The last arm falls through to the end of the turn: its next step and test.
        #expect(lines.contains("  11  19:17   step; if i < 3: goto 5"))
    }

    /// A test of `x == null` or `x != null` is one instruction that looks at `x`, whichever
    /// side the `null` is on; `latest`'s loop tests its last body so.
    @Test func aComparisonWithNullIsOneTest() async throws {
        let r = try await listing(
            """
            saga main {
              var x = null
              if null != x { log "x" }
              latest "go" as g { log g }
            }
            """)
        #expect(r.code == 0)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("  3  3:3     unless x != null: goto 7"))
        #expect(lines.contains("    4  4:3     unless last != null: goto 7"))
    }

    /// A `call` of a one-`return` function is listed as the interpreter runs it: made in the
    /// code, its statement run as written where it cannot be made so; an argument that is
    /// neither a variable nor a constant goes into a local, read as often as the function
    /// reads it.
    @Test func aCallOfAOneReturnFunctionIsMadeInTheCode() async throws {
        let r = try await listing(
            """
            func one() { return 1 }
            func sq(x) { return x * x }
            saga main {
              var i = 0
              while i < 3 { let x = call one(); let y = call sq(i + x); i = i + x }
            }
            """)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("saga main at 3:1: compiled, 16 instructions"))
        #expect(lines.contains("   5  5:17    step; call one(), or run (let x (call one)) where it stands"))
        #expect(lines.contains("   6  5:17    return 1 into x"))
        #expect(lines.contains("   9  5:37    call sq(l0), or run (let y (call sq (+ i x))) where it stands"))
        #expect(lines.contains("  10  5:37    l0 = t0"))
        #expect(lines.contains("  11  5:37    t1 = l0 * l0"))
        #expect(lines.contains("  12  5:37    return t1 into y"))
        // The functions' own code, which a call that cannot be made in the code runs.
        #expect(lines.contains("func sq at 2:1: compiled, 3 instructions, called in the caller's task"))
        #expect(lines.contains("  1  2:14    t0 = x * x"))
        #expect(lines.contains("  2  2:14    return t0"))
    }

    @Test func aFunctionsTitleSaysHowACallRunsIt() async throws {
        let r = try await listing(
            """
            func plain(x) { put "a" { x: x } }
            func guarded() { try { delay 1 } catch e { log "e" } }
            saga main { call plain(1); call guarded() }
            """)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("func plain at 1:1: compiled, 4 instructions, called in the caller's task"))
        #expect(
            lines.contains {
                $0.hasPrefix("func guarded at 2:1: compiled") && $0.hasSuffix(", called as a task of its own")
            })
    }

    @Test func aForkedBlockIsListedUnderTheBodyThatStartsIt() async throws {
        let r = try await listing("saga main { loop { let t = fork { log 1 }; join t } }")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("saga main at 1:1: compiled, 5 instructions"))
        #expect(lines.contains("  3  1:44    step; join t"))
        #expect(lines.contains("  4  1:20    step, goto 2"))
        #expect(lines.contains("  fork block at 1:28: compiled, 2 instructions"))
        #expect(lines.contains("    1  1:35    log 1"))
    }

    @Test func aJumpOutOfAFinallyBlockDropsItsWayOut() async throws {
        let r = try await listing("saga main { loop { try { take \"a\" } finally { break } } }")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("leave finally: drop the way out") })
    }

    @Test func aTransactionListsItsBeginAndEnd() async throws {
        let r = try await listing("saga main { loop { transaction { compensate { log 1 }; take \"a\" } } }")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("transaction: on failing run its compensations") })
        #expect(lines.contains { $0.hasSuffix("end try or transaction") })
    }

    @Test func aTryListsWhereItsErrorsAndWaysOutGo() async throws {
        let r = try await listing("saga main { loop { try { take \"a\" } catch e { log e } finally { log 1 } } }")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("try: on error e = error; goto 11; on leaving goto 24") })
        #expect(lines.contains { $0.hasSuffix("1:20    try: on leaving goto 20") })
        #expect(lines.filter { $0.hasSuffix("end finally: go on leaving") }.count == 2)
    }

    /// `select` of the state or a member of it is an instruction of the code; one of anything
    /// else is code over the store's state.
    @Test func aSelectOfTheStateOrAMemberIsAnInstruction() async throws {
        let r = try await listing(
            """
            state { count: 0, user: { name: "a" } }
            saga main { let c = select state.count; var s = select; let n = select state.user.name }
            """)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix("step; select state.count into c") }, "\(r.out)")
        #expect(lines.contains { $0.hasSuffix("step; select state into s") }, "\(r.out)")
        #expect(lines.contains { $0.hasSuffix("step; select: state = the store's") }, "\(r.out)")
        #expect(lines.contains { $0.hasSuffix("n = t0.name") }, "\(r.out)")
        #expect(lines.contains { $0.hasSuffix("end select: let go of state") }, "\(r.out)")
    }

    /// A reducer's pattern shows as it is written: a type, `*`, or a list of types.
    @Test func aReducersListPatternIsShown() async throws {
        let r = try await listing("state { n: 0 }\nreduce [\"inc\", \"dec\"] as a { state.n = state.n + 1 }\n")
        #expect(r.out.hasPrefix("reducer on [\"inc\",\"dec\"] at 2:1:"), "\(r.out)")
    }

    @Test func aProgramThatDoesNotCheckListsNothing() async throws {
        let r = try await listing("saga main { take }")
        #expect(r.code != 0)
        #expect(r.out.isEmpty)
        #expect(!r.err.isEmpty)
    }

    /// A `try`'s own instructions (the end of its blocks, the jumps past the others, the end of
    /// a `finally` copy) stand at the `try` statement's line, not at the last statement
    /// compiled before them.
    @Test func aTrysOwnInstructionsStandAtItsLine() async throws {
        let r = try await listing(
            """
            saga main {
              loop {
                let a = take "ping"
                try {
                  put "pong"
                } catch e {
                  log "caught"
                } finally {
                  log "done"
                }
              }
            }
            """)
        #expect(r.code == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        let own = lines.filter {
            $0.hasSuffix("end try or transaction") || $0.hasSuffix("end finally: go on leaving")
                || $0.contains("goto")
                    && !$0.contains("step")
        }
        #expect(own.count >= 4, "\(r.out)")
        for line in own { #expect(line.contains(" 4:5 "), "\(line)") }
    }
}
