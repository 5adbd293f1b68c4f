import SagaPersistence
import Testing

/// A controller's reducer captures nothing: an app may keep it in a global constant, which
/// Swift 6 allows only for a `Sendable` value (this file does not compile otherwise).
private let noteReducer = FileStoreController<SendableReducerTests.Note>.makeReducer()

@Suite struct SendableReducerTests {
    struct Note: Persistable, Equatable {
        static let entityName = "notes"
        var id: String
        var text: String
    }

    @Test func theReducerKeptInAGlobalConstantReduces() {
        var state = FileStoreController<Note>.State()
        let note = Note(id: "1", text: "hello")
        noteReducer(&state, .save(note))
        guard case .processing = state.persist else {
            Issue.record("save leaves the state \(state.persist)")
            return
        }
        noteReducer(&state, .saved(note))
        guard case .succeeded = state.persist else {
            Issue.record("saved leaves the state \(state.persist)")
            return
        }
    }
}
