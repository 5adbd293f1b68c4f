import Foundation
import SagaPersistence
import Testing

/// `PersistenceState` encodes as sagas read `state.persistence.<entity>`: a record with a
/// `status` and that status's fields.
@Suite struct PersistenceStateCodingTests {
    struct Song: Codable, Equatable {
        var id: Int
    }
    struct Failure: Error, Codable, Equatable {
        var message: String
    }
    typealias State = PersistenceState<Song, Failure, String>

    private func json(_ state: State) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }

    @Test func everyStatusEncodesAsARecordWithItsFieldsAndDecodesBack() throws {
        let states: [(State, String)] = [
            (
                State(),
                #"{"delete":{"status":"initial"},"persist":{"status":"initial"},"request":{"status":"initial"}}"#
            ),
            (
                State(request: .received([Song(id: 1)]), persist: .succeeded, delete: .processing),
                #"{"delete":{"status":"processing"},"persist":{"status":"succeeded"},"#
                    + #""request":{"elements":[{"id":1}],"status":"received"}}"#
            ),
            (
                State(
                    request: .failed(error: Failure(message: "gone"), request: "q"),
                    persist: .failed(error: Failure(message: "full"), element: Song(id: 2)), delete: .initial),
                #"{"delete":{"status":"initial"},"#
                    + #""persist":{"element":{"id":2},"error":{"message":"full"},"status":"failed"},"#
                    + #""request":{"error":{"message":"gone"},"request":"q","status":"failed"}}"#
            ),
            (
                State(request: .loading),
                #"{"delete":{"status":"initial"},"persist":{"status":"initial"},"#
                    + #""request":{"status":"loading"}}"#
            ),
            (
                State(request: .canceled),
                #"{"delete":{"status":"initial"},"persist":{"status":"initial"},"#
                    + #""request":{"status":"canceled"}}"#
            ),
        ]
        for (state, expected) in states {
            #expect(try json(state) == expected)
            #expect(try JSONDecoder().decode(State.self, from: Data(expected.utf8)) == state)
        }
    }

    @Test func anUnknownStatusIsADecodingError() {
        let text = #"{"delete":{"status":"initial"},"persist":{"status":"done"},"request":{"status":"initial"}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(State.self, from: Data(text.utf8)) }
    }
}
