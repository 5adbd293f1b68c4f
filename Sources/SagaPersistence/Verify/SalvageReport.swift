/// What `sagarun store recover` did: the records it kept from a damaged store, and what it
/// passed over.
public struct SalvageReport: Sendable {
    /// The folder recovered.
    public var directory: String
    /// The log records (saves and deletes) replayed, their checksums whole.
    public var records: Int
    /// The bytes of the logs and the snapshot that held no whole record.
    public var skippedBytes: Int
    /// The whole element records of a damaged snapshot passed over because the entity they
    /// belong to is not known for sure.
    public var orphanedElements: Int = 0
    /// The elements a damaged snapshot says it holds whose records were damaged or cut off
    /// (the orphaned ones aside): they are not in the recovered store.
    public var lostSnapshotElements = 0
    /// With no snapshot, the records before the first log segment (which followed a snapshot
    /// that is gone): they could not be recovered.
    public var recordsMissingBefore: UInt64 = 0
    /// The files named as log segments that gave no whole record, only bytes passed over (they
    /// are kept with the other old files): a stray file, or one damaged throughout.
    public var unreadableFiles: [String] = []
    /// Each file the recovered store replaced, and the name it is kept under
    /// (`before-recover-log-…`), which the store never reads: what recovery passed over may
    /// still be got from it.
    public var keptFiles: [(file: String, keptAs: String)] = []
    /// The elements of the recovered store, per entity.
    public var entities: [String: Int]

    /// The number of elements over all entities.
    public var elements: Int { entities.values.reduce(0, +) }
}
