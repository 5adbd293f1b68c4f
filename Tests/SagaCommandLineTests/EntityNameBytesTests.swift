import Foundation
import Testing

/// Entity names are told apart by their bytes, as the language's strings are: `"café"`
/// precomposed and decomposed are two entities, in memory, in the file store, and after the
/// store is compacted into a snapshot and read again.
@Suite struct EntityNameBytesTests {
    static let source = """
        saga main {
          let nfc = "caf\\u{e9}"
          let nfd = "cafe\\u{301}"
          put "persistence/save" { entity: nfc, element: { id: 1, v: "nfc" } }
          take "persistence/saved"
          put "persistence/save" { entity: nfd, element: { id: 1, v: "nfd" } }
          take "persistence/saved"
          put "persistence/request" { entity: nfc }
          let a = take "persistence/received"
          put "persistence/request" { entity: nfd }
          let b = take "persistence/received"
          log [a.elements, b.elements]
        }
        """

    static let expected = #"[[{"id":1,"v":"nfc"}],[{"id":1,"v":"nfd"}]]"# + "\n"

    @Test func canonicallyEquivalentNamesAreTwoEntities() async throws {
        try await ExitCodeTests.withFiles(["names.saga": Self.source]) { dir in
            let script = dir.appendingPathComponent("names.saga").path
            let store = dir.appendingPathComponent("store").path
            let inMemory = await runSagarun(["run", script, "--memory"])
            #expect(inMemory.out == Self.expected, "\(inMemory.err)")
            let filed = await runSagarun(["run", script, "--store", store])
            #expect(filed.out == Self.expected, "\(filed.err)")
            let compacted = await runSagarun(["store", "compact", store])
            #expect(compacted.out.contains("2 elements"), "\(compacted.out)")
            // The snapshot holds both entities, and reads back sound.
            #expect(await runSagarun(["store", "verify", store]).code == 0)
            let reopened = await runSagarun(["run", script, "--store", store])
            #expect(reopened.out == Self.expected, "\(reopened.err)")
        }
    }
}
