import SagaCore
import Testing

@testable import SagaLanguage

@Suite("The checker resolves what call, fork and spawn name, and checks built-in calls")
struct CheckerCalleeTests {
    @Test func anUnknownFunctionIsReportedWithTheClosestFunctionOrHostName() {
        #expect(
            CheckerTests.diagnostics(
                """
                func loadUser(id) { }
                saga main {
                  call loadUsr(1)
                  fork api.fetchUsr()
                  spawn nothingLikeIt()
                  call billing.charge(1)
                }
                """, hostFunctions: ["api.fetchUser"]) == [
                    "3:8: error: unknown function 'loadUsr'; did you mean 'loadUser'?",
                    "4:8: error: unknown function 'api.fetchUsr'; did you mean 'api.fetchUser'?",
                    "5:9: error: unknown function 'nothingLikeIt'",
                    "6:8: error: unknown function 'billing.charge'; declare a host function with 'extern func billing.charge(…)'",
                ])
    }

    @Test func aFunctionCalledWithTheWrongNumberOfArgumentsPointsAtItsDeclaration() {
        #expect(
            CheckerTests.diagnostics(
                """
                func f(a, b) { }
                saga main {
                  call f(1, 2, 3)
                  fork f(1)
                }
                """) == [
                    "3:8: error: 'f' takes 2 arguments but 3 were given",
                    "1:1: note: 'f' declared here",
                    "4:8: error: 'f' takes 2 arguments but 1 was given",
                    "1:1: note: 'f' declared here",
                ])
    }

    @Test func aRootSagaCannotBeCalled() {
        #expect(
            CheckerTests.errors(
                """
                saga other { }
                saga main { call other() }
                """) == [
                    "2:18: error: cannot call root saga 'other'; it starts on its own (declare it with 'func' to call it)"
                ])
    }

    @Test func anUnknownBuiltinIsReportedWithTheClosestBuiltin() {
        #expect(
            CheckerTests.errors("saga main { log lens([1]) }")
                == ["1:17: error: unknown function 'lens'; did you mean 'len'?"])
        #expect(
            CheckerTests.errors("saga main { log lenght([1]) }") == ["1:17: error: unknown function 'lenght'"])
        #expect(
            CheckerTests.errors(
                """
                saga main { log uper("a") }
                """) == ["1:17: error: unknown function 'uper'; did you mean 'upper'?"])
    }

    @Test func aSagaOrHostFunctionUsedInAnExpressionSaysHowToCallIt() {
        #expect(
            CheckerTests.errors(
                """
                func load() { }
                saga main {
                  let a = load()
                  let b = fetch(1)
                }
                """, hostFunctions: ["fetch"]) == [
                    "3:11: error: 'load' is a saga function; call it with call, fork or spawn",
                    "4:11: error: 'fetch' is a host function; call it with call, fork or spawn",
                ])
    }

    @Test func aBuiltinCalledWithTheWrongNumberOfArgumentsIsReported() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  log len(1, 2)
                  log now(1)
                  log slice([1])
                  log has({})
                }
                """) == [
                    "2:7: error: 'len' takes 1 argument but 2 were given",
                    "3:7: error: 'now' takes no arguments but 1 was given",
                    "4:7: error: 'slice' takes 2 or 3 arguments but 1 was given",
                    "5:7: error: 'has' takes 2 arguments but 1 was given",
                ])
    }
}
