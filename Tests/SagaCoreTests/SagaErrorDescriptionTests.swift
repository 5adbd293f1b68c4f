import SagaCore
import Testing

/// A `SagaError` prints as its record reads: `Kind: message`.
@Suite struct SagaErrorDescriptionTests {
    @Test func anErrorPrintsItsKindAndMessage() {
        #expect("\(SagaError(kind: "TypeError", message: "expected a number"))" == "TypeError: expected a number")
        #expect("\(SagaError(value: ["message": "no kind"]))" == "no kind")
    }
}
