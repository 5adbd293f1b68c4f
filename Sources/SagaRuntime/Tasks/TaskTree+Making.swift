import SagaCore

extension TaskTree {
    /// A fresh number for a task or a channel: one sequence numbers both, in the order they
    /// are made.
    @inline(__always)
    func makeID() -> Int {
        let id = nextID
        nextID += 1
        return id
    }

    /// Makes a task that runs `code`, and counts it as alive until it finishes.
    func newTask(
        name: String, location: SourceLocation, kind: SagaTask.Kind, parent: SagaTask?, env: [Value], code: Code
    ) -> SagaTask {
        liveTasks += 1
        return makeTask(id: makeID(), name: name, location: location, kind: kind, parent: parent, env: env, code: code)
    }

    /// The variables a `fork` or `spawn` block starts with: a copy of the first `size` slots of
    /// its parent's (``SagaLanguage/Block/frameSize``, or the whole frame when the block does
    /// not say).
    ///
    /// The whole frame is shared until either task writes to it; a prefix is a new array (none
    /// at all for a block that uses no variable), which the parent then does not copy at its
    /// next write. A parent that is itself a block's task may hold fewer slots than the block
    /// declares (its frame leaves out its nested blocks' own variables): the rest start null.
    static func frame(_ size: Int, from env: [Value]) -> [Value] {
        guard size < env.count else { return size > env.count ? padded(env, to: size) : env }
        return size == 0 ? [] : Array(env[..<size])
    }

    /// A new array of `size` slots for a task running `code`: those of `env` the code uses (see
    /// ``Code/copyCaptures(_:into:)``), nulls elsewhere.
    static func ownFrame(_ size: Int, of env: [Value], _ code: Code) -> [Value] {
        var frame = [Value](repeating: .null, count: size)
        // Not even looked at where nothing is copied: an empty array made mutable allocates.
        if size == 0 || code.captureCount == 0 { return frame }
        frame.withUnsafeMutableBufferPointer { slots in
            env.withUnsafeBufferPointer { code.copyCaptures($0, into: slots) }
        }
        return frame
    }

    /// `env` with nulls after it, `size` slots in all.
    @inline(never)
    static func padded(_ env: [Value], to size: Int) -> [Value] {
        var frame = env
        frame.append(contentsOf: repeatElement(.null, count: size - env.count))
        return frame
    }

    /// A task that runs `code`, which the caller counts as alive.
    ///
    /// It is one that has finished, restarted, where one is kept (see ``SpareTasks``), or a new
    /// one.
    @inline(__always)
    func makeTask(
        id: Int, name: String, location: SourceLocation, kind: SagaTask.Kind, parent: SagaTask?, env: [Value],
        code: Code
    ) -> SagaTask {
        guard let spare = spareTasks.take() else {
            return SagaTask(id: id, name: name, location: location, kind: kind, parent: parent, env: env, body: code)
        }
        spare.restart(id: id, name: name, location: location, kind: kind, parent: parent, env: env, body: code)
        return spare
    }
}
