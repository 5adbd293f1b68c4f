import Foundation
import SagaCore
import Testing

@testable import SagaPersistence

/// The store's lock holds whatever happens to the files in its folder.
@Suite struct LockHoldTests {
    /// Deleting `LOCK` while a handle holds the store lets no second one in to write the log
    /// too: the folder's own lock refuses it, and the refused open creates no `LOCK` of its
    /// own.
    @Test func deletingTheLockFileLetsNoSecondWriterIn() async throws {
        try await withTemporaryFolder { folder in
            let first = try FileStore.open(directory: folder.path)
            _ = try await first.save(entity: "songs", element: ["id": 1])
            try FileManager.default.removeItem(atPath: folder.path + "/LOCK")
            #expect {
                try FileStore.open(directory: folder.path)
            } throws: { error in
                (error as? StoreError)?.code == .locked
            }
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/LOCK"))
            let report = FileStore.verify(directory: folder.path)
            #expect(report.problem?.code == .locked)
            await first.close()
            let again = try FileStore.open(directory: folder.path)
            #expect(try await again.query(entity: "songs", Query.parse(.record(Record()))).count == 1)
            await again.close()
        }
    }
}
