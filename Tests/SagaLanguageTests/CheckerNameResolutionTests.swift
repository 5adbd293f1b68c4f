import SagaCore
import Testing

@testable import SagaLanguage

@Suite("The checker resolves variables and reports misuse of them")
struct CheckerNameResolutionTests {
    @Test func anUnknownVariableIsReportedWithTheClosestNameInScope() {
        #expect(
            CheckerTests.errorsAndNotes(
                """
                saga main {
                  let count = 1
                  log cuont
                }
                """) == ["3:7: error: unknown variable 'cuont'; did you mean 'count'?"])
    }

    @Test func anUnknownVariableWithNothingCloseGetsNoSuggestion() {
        #expect(
            CheckerTests.errorsAndNotes(
                """
                saga main {
                  let count = 1
                  log total
                }
                """) == ["3:7: error: unknown variable 'total'"])
    }

    @Test func aVariableIsVisibleOnlyInItsBlock() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  if true { let inner = 1 }
                  log inner
                }
                """) == ["3:7: error: unknown variable 'inner'"])
    }

    @Test func aLetConstantCannotBeReassigned() {
        #expect(
            CheckerTests.diagnostics(
                """
                saga main {
                  let x = 1
                  x = 2
                }
                """) == [
                    "3:3: error: cannot assign to 'x': it is a let constant",
                    "2:7: note: 'x' declared here; declare it with 'var' to make it mutable",
                ])
    }

    @Test func bindingsAreConstantsButParametersMayBeAssigned() {
        #expect(
            CheckerTests.errors(
                """
                func f(n) {
                  n = n - 1
                  for x in [1] { x = 2 }
                }
                """) == ["3:18: error: cannot assign to 'x': it is a let constant"])
    }

    /// A captured variable cannot be assigned even as a `var`: that error comes first, not the
    /// `let` one, whose note would send the user to a `var` that fails next.
    @Test func aCapturedLetIsReportedAsCapturedNotAsConstant() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  let n = 0
                  fork { n = 1 }
                }
                """) == [
                    "3:10: error: cannot assign to 'n' captured by a forked block; tasks share nothing but the store and channels"
                ])
    }

    @Test func assigningAnUndeclaredNameIsReported() {
        #expect(
            CheckerTests.errorsAndNotes(
                """
                saga main {
                  var total = 0
                  totl = 1
                  other = 2
                }
                """) == [
                    "3:3: error: cannot assign to undeclared variable 'totl'; did you mean 'total'?",
                    "4:3: error: cannot assign to undeclared variable 'other'; declare it with 'var other = …'",
                ])
    }

    @Test func redeclaringInTheSameBlockIsAnErrorButShadowingIsNot() {
        #expect(
            CheckerTests.errorsAndNotes(
                """
                saga main {
                  let x = 1
                  if true { let x = 2 }
                  let x = 3
                }
                """) == [
                    "4:7: error: invalid redeclaration of 'x'",
                    "2:7: note: 'x' previously declared here",
                ])
    }

    /// After a block ends, a name it hid means the outer variable again: its use counts for
    /// the outer one, and of a name declared twice in one block only the later one is warned
    /// about when unused (the first already has its redeclaration error).
    @Test func aShadowEndsWithItsBlockAndARedeclarationIsWarnedAboutOnce() {
        let result = CheckerTests.compile(
            """
            saga main {
              let outer = 1
              if true {
                let outer = 2
                log outer
              }
              log outer
              let twice = 1
              let twice = 2
            }
            """)
        let diagnostics = result.diagnostics.map {
            "\($0.location.line):\($0.location.column): \($0.severity): \($0.message)"
        }
        #expect(
            diagnostics == [
                "9:7: error: invalid redeclaration of 'twice'",
                "8:7: note: 'twice' previously declared here",
                "9:7: warning: variable 'twice' was never used; remove it, or name it '_twice'",
            ])
    }

    @Test func aDeclarationsOwnNameIsNotVisibleInItsInitialValue() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  let x = x + 1
                }
                """) == ["2:11: error: unknown variable 'x'"])
    }

    @Test func aWatcherBindingIsVisibleOnlyInItsBody() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  every "a" as a { log a }
                  log a
                }
                """) == ["3:7: error: unknown variable 'a'"])
    }
}
