import SagaCore

extension LogWriter {
    /// A save or delete waiting for the writer: already encoded by its caller, who hears of
    /// it through `finish`.
    struct Pending: Sendable {
        /// ``StoreFormat/save`` or ``StoreFormat/delete``.
        let type: UInt8
        let entity: String
        /// The element's id (checked).
        let id: Value
        /// The element, for a save.
        let element: Value
        /// The encoded entity and element (or id): the frame's payload.
        let payload: [UInt8]
        /// Called on the writer thread with the stored element (save) or the deleted one
        /// (delete) once synced, or with the failure.
        let finish: @Sendable (Result<Value?, StoreError>) -> Void
    }

    /// What recovery hands the writer: the index and the open newest log segment.
    struct Recovered {
        var index: EntityIndex
        /// The newest log segment, open for appending.
        var logFD: Int32
        var logHeader: FileHeader
        var generation: Int
        /// The sequence number of the next record.
        var nextSequence: UInt64
        /// The bytes of records in the newest segment.
        var logBytes: Int
        /// The bytes of the torn tail that recovery cut off the newest segment.
        var tornTailBytes: Int
        /// The path of the file that keeps the torn tail's bytes; nil when there was no tail or
        /// it held only zeros.
        var tornTailKeeper: String?
    }
}
