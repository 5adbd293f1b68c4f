/// What `sagarun store compact` did: the store's size before and after it was rewritten as
/// one snapshot and an empty log segment.
public struct CompactionReport: Sendable {
    /// The folder compacted.
    public var directory: String
    /// The size of the store's files before (logs, snapshots and leftovers).
    public var bytesBefore: Int
    /// Their size after.
    public var bytesAfter: Int
    /// The elements written to the snapshot, per entity.
    public var entities: [String: Int]
    /// The size of the torn tail that opening cut (an unacknowledged write), 0 if none.
    public var tornTailBytes: Int
    /// The path of the file that keeps the torn tail's bytes; nil when there was none or it
    /// held only zeros.
    public var tornTailKeeper: String?

    /// The number of elements over all entities.
    public var elements: Int { entities.values.reduce(0, +) }

    /// Creates a report.
    public init(
        directory: String, bytesBefore: Int, bytesAfter: Int, entities: [String: Int], tornTailBytes: Int,
        tornTailKeeper: String? = nil
    ) {
        self.directory = directory
        self.bytesBefore = bytesBefore
        self.bytesAfter = bytesAfter
        self.entities = entities
        self.tornTailBytes = tornTailBytes
        self.tornTailKeeper = tornTailKeeper
    }
}
