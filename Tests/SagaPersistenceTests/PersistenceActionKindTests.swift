import Testing

@testable import SagaPersistence

/// The persistence middleware and reducer recognise exactly the persistence action types
/// (see “Persistence” in Sagas/README.md), byte for byte.
@Suite struct PersistenceActionKindTests {
    @Test func everyTypeOfSection7IsRecognised() {
        for kind in PersistenceActionKind.allCases {
            #expect(PersistenceActionKind(type: kind.type) == kind)
        }
        #expect(PersistenceActionKind(type: "persistence/saved") == .saved)
        #expect(PersistenceActionKind(type: "persistence/cancelRequest") == .cancelRequest)
    }

    @Test(arguments: [
        "", "persistence", "persistence/", "persistence/sav", "persistence/savedx", "Persistence/save",
        "persistence/Save", "persistence//save", "x/save", "persistence/requestfailed", "persistence/save ",
    ])
    func otherTypesAreNot(_ type: String) {
        #expect(PersistenceActionKind(type: type) == nil)
    }

    @Test func thePrefixLengthIsThePrefixs() {
        #expect(PersistenceActionKind.prefixLength == PersistenceActionKind.prefix.count)
    }
}
