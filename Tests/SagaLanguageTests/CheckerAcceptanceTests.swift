import SagaCore
import Testing

@testable import SagaLanguage

@Suite("The checker accepts correct programs")
struct CheckerAcceptanceTests {
    @Test func theContractsCounterExampleChecksCleanly() {
        let result = CheckerTests.compile(
            """
            state { count: 0 }

            reduce "counter/add" as a { state.count = state.count + a.by }

            saga counter {
              every "counter/request" as req {
                delay 100ms
                put "counter/add" { by: req.by }
                let n = select state.count
                log "count is \\(n)"
              }
            }
            """)
        #expect(result.diagnostics.isEmpty)
        #expect(!result.hasErrors)
        let program = result.program
        #expect(program?.reducers.count == 1)
        #expect(program?.sagas.map(\.name) == ["counter"])
        #expect(program?.initialState != nil)
    }

    @Test func aProgramUsingEveryConstructChecksCleanly() {
        let result = CheckerTests.compile(
            """
            func fetch(id) {
              let user = call api.fetchUser(id)
              return user
            }

            saga main {
              var tries = 0
              let ch = channel buffer 10
              let orders = actionChannel "order/*"
              let w = latest ["a", "b"] as a { log a }
              throttle 1s "click" as c { put "clicked" { at: c.at } }
              debounce 200ms "typed" as t { log t.text }
              while tries < 3 {
                tries = tries + 1
                if tries == 2 { continue } else if tries > 5 { break } else { log tries }
              }
              try {
                let r = race { user: call fetch(1), timeout: delay 5s }
                let all2 = all { a: take "a" where it.id == 1, b: select state.b }
                let each = all for x in [1, 2] { call fetch(x) }
                let list = all [take *, put ch 1]
                let u = retry 3 backoff 100ms call api.fetchUser(2)
                transaction {
                  compensate { log "undo \\(u)" }
                  let t = fork { log len(keys(r)) }
                  join t
                }
              } catch e {
                log e.message
              } finally {
                if cancelled { log "cancelled" }
              }
              spawn fetch(3)
              cancel w
              cancel
            }
            """, hostFunctions: ["api.fetchUser"])
        #expect(result.diagnostics.map { $0.rendered(files: result.files) } == [])
        #expect(result.program != nil)
    }

    @Test func warningsDoNotMakeAProgramFail() {
        let result = CheckerTests.compile(
            """
            saga main {
              return 1
              log "never"
              log "nor this"
            }
            """)
        #expect(
            result.diagnostics == [
                .init(.warning, "code after 'return' will never be executed", at: .init(line: 3, column: 3))
            ])
        #expect(!result.hasErrors)
        #expect(result.program != nil)
    }

    /// Code after a loop that only a jump out of its block ends never runs, a watcher after a
    /// `take` loop being a common slip; a `break` of the loop itself (in an `if` or a `try` of
    /// its body) ends it, and one of a loop nested in it does not.
    @Test func codeAfterALoopWithNoBreakIsWarnedOf() {
        let looping = [
            "saga main {\n  loop { take \"b\" }\n  every \"c\" as x { log 1 }\n}",
            "saga main {\n  while true { take \"b\" }\n  log 1\n}",
            "saga main {\n  loop {\n    for x in [1] { break }\n  }\n  log 1\n}",
        ]
        for source in looping {
            let warnings = CheckerTests.diagnostics(source).filter {
                $0.contains("with no 'break' will never be executed")
            }
            #expect(warnings.count == 1, "\(source)")
        }
        let ending = [
            "saga main {\n  loop {\n    let a = take \"b\"\n    if a.n > 1 { break }\n  }\n  log 1\n}",
            "saga main {\n  loop {\n    try { take \"b\"\n break } finally { }\n  }\n  log 1\n}",
            "saga main {\n  var i = 0\n  while i < 3 { i = i + 1 }\n  log i\n}",
        ]
        for source in ending {
            #expect(CheckerTests.diagnostics(source).isEmpty, "\(source)")
        }
    }

    /// A saga function named as a built-in or a provided host function compiles, with a
    /// warning that says which call reaches which; one named as its own `extern` is an error
    /// (elsewhere), and other names get no warning.
    @Test func aFunctionNamedAsABuiltinOrAHostFunctionIsWarnedOf() {
        let result = CheckerTests.compile(
            """
            func len(x) { return 42 }
            func http.get(url) { return 1 }
            func length(x) { return 0 }
            saga main {
              log len([1])
              let n = call len([1])
              let r = call http.get("u")
              let m = call length(1)
              log n + r + m
            }
            """, hostFunctions: ["http.get"])
        #expect(!result.hasErrors)
        #expect(
            result.diagnostics.map(\.message) == [
                "function 'len' has the name of a built-in function: 'len(…)' in an expression calls the built-in, "
                    + "and 'call len(…)' this function; rename it to keep them apart",
                "function 'http.get' has the name of a host function: 'call http.get(…)' calls this function, "
                    + "not the host's; rename it to call the host's",
            ])
        #expect(result.diagnostics.map(\.location.line) == [1, 2])
    }

    /// A `put` or `take` of a `persistence/…` type the persistence middleware neither handles
    /// nor puts is warned of, with the closest one; the middleware's own types and globs are not.
    @Test func aPersistenceActionThatDoesNotExistIsWarnedOf() {
        let result = CheckerTests.compile(
            """
            saga main {
              put "persistence/Save" { entity: "n", element: { id: 1 } }
              put "persistence/load" { entity: "n" }
              let r = take "persistence/recieved"
              put "persistence/save" { entity: "n", element: { id: 1 } }
              let s = take "persistence/saved"
              let t = take "persistence/*"
              log [r, s, t]
            }
            """)
        #expect(!result.hasErrors)
        let warnings = result.diagnostics.map { "\($0.location.line): \($0.message)" }
        let list =
            "a saga puts persistence/save, delete, request or cancelRequest, and takes what they answer "
            + "(saved, deleted, received, canceled, saveFailed, deleteFailed, requestFailed)"
        #expect(
            warnings == [
                "2: 'persistence/Save' is not an action of the persistence middleware: \(list); did you mean 'persistence/save'?",
                "3: 'persistence/load' is not an action of the persistence middleware: \(list)",
                "4: 'persistence/recieved' is not an action of the persistence middleware: \(list); did you mean 'persistence/received'?",
            ])
    }
}
