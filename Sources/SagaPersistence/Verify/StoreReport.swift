/// What `sagarun store verify` found in a store's folder: its files, what they hold, and
/// either the first damage (``problem``) or nothing wrong.
///
/// Warnings are things that opening the store repairs on its own and that lose no acknowledged
/// write: a torn tail, leftovers of an interrupted snapshot.
///
/// ```swift
/// let report = FileStore.verify(directory: ".sagastore")
/// if let problem = report.problem { print(problem) }   // file and offset of the damage
/// ```
public struct StoreReport: Sendable {
    /// The folder verified.
    public var directory: String
    /// The live files read, in order (the newest snapshot first), as far as verification got.
    public var files: [File]
    /// Elements per entity, after every record (empty when there is a problem).
    public var entities: [String: Int]
    /// The sequence number of the last record.
    public var lastSequence: UInt64
    /// What opening the store would repair, with the file and offset.
    public var warnings: [Warning]
    /// The first damage found; nil when the store is sound.
    public var problem: StoreError?

    /// Whether the store opens with every record it holds.
    public var isSound: Bool { problem == nil }
    /// The total size of the live files.
    public var bytes: Int { files.reduce(0) { $0 + $1.bytes } }
    /// The number of log records read.
    public var records: Int { files.filter { $0.kind == .log }.reduce(0) { $0 + $1.count } }
    /// The number of elements over all entities.
    public var elements: Int { entities.values.reduce(0, +) }

    /// Creates a report.
    public init(
        directory: String, files: [File] = [], entities: [String: Int] = [:], lastSequence: UInt64 = 0,
        warnings: [Warning] = [], problem: StoreError? = nil
    ) {
        self.directory = directory
        self.files = files
        self.entities = entities
        self.lastSequence = lastSequence
        self.warnings = warnings
        self.problem = problem
    }
}
