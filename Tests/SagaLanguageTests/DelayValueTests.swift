import SagaCore
import Testing

@testable import SagaLanguage

/// `delay D V`: the value is what follows D on its line; on the next line it is a statement.
@Suite struct DelayValueTests {
    /// The statements of `saga main` in `body`.
    func statements(_ body: String) -> [Stmt] {
        Frontend().compile(source: "saga main {\n\(body)\n}\n", path: "d.saga").program?.sagas.first?.body.statements
            ?? []
    }

    @Test func aValueOnTheSameLineIsTheDelaysValue() {
        guard case .declare(_, _, .effect(.delay(_, let value, _)), _)? = statements("  let x = delay 5ms \"v\"").first
        else {
            Issue.record("no delay")
            return
        }
        #expect(value != nil)
    }

    @Test func aLineBreakEndsTheDelay() {
        let body = statements("  let x = 1\n  delay 5ms\n  log x")
        #expect(body.count == 3)
        guard case .effect(.delay(_, let value, _), _)? = body.dropFirst().first else {
            Issue.record("no delay")
            return
        }
        #expect(value == nil)
    }
}
