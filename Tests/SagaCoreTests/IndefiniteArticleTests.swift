import SagaCore
import Testing

/// Messages that name a type read as English: `not an Int`, `not a User`.
@Suite struct IndefiniteArticleTests {
    @Test func aTypeNameGetsTheArticleItIsReadWith() {
        #expect(
            ["Int", "AppAction", "Order", "Element", "String", "User", "URL", "Bool"].map(\.withIndefiniteArticle) == [
                "an Int", "an AppAction", "an Order", "an Element", "a String", "a User", "a URL", "a Bool",
            ])
    }
}
