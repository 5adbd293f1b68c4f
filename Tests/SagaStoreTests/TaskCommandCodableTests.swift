import Foundation
import SagaStore
import Testing

/// A task command in JSON: every command encodes; only cancel and cancelAll decode.
@Suite struct TaskCommandCodableTests {
    typealias Command = TaskCommand<Screen.State, Screen.Action>

    func json(_ command: Command) throws -> String {
        String(decoding: try JSONEncoder().encode(command), as: UTF8.self)
    }

    @Test func commandsEncodeWithTheirIDs() throws {
        #expect(try json(.run(TaskAction(id: "search") { _ in })) == #"{"run":{"id":"search"}}"#)
        #expect(try json(.cancel("search")) == #"{"cancel":{"id":"search"}}"#)
        #expect(try json(.cancelAll) == #"{"cancelAll":{}}"#)
    }

    @Test func cancelsDecodeAndARunDoesNot() throws {
        let cancel = try JSONDecoder().decode(Command.self, from: Data(#"{"cancel":{"id":"search"}}"#.utf8))
        guard case .cancel(let id) = cancel else {
            Issue.record("expected a cancel, got \(cancel)")
            return
        }
        #expect(id == "search")
        guard case .cancelAll = try JSONDecoder().decode(Command.self, from: Data(#"{"cancelAll":{}}"#.utf8)) else {
            Issue.record("expected cancelAll")
            return
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Command.self, from: Data(#"{"run":{"id":"search"}}"#.utf8))
        }
    }
}
