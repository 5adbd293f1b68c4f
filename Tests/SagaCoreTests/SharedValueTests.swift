import Testing

@testable import SagaCore

/// A value whose parts are shared (`r = {a: r, b: r}`, repeated) is small in memory and
/// exponentially large as a tree: what walks it must not walk the tree.
@Suite struct SharedValueTests {
    /// 2^80 leaves in 81 records, 81 levels deep.
    static var shared: Value {
        var r: Value = .record(Record())
        for _ in 0..<80 { r = ["a": r, "b": r] }
        return r
    }

    @Test func equalityOfTheSameStorageDoesNotWalk() {
        let r = Self.shared
        #expect(r == r)
        let copy = r
        #expect(copy == r)
    }

    @Test func hashingIsBounded() {
        let r = Self.shared
        var set: Set<Value> = [r]
        set.insert(r)
        #expect(set.count == 1)
        // Hashes still tell values apart.
        #expect(Set<Value>([["a": 1], ["a": 2], [1, [2]], [1, [3]]]).count == 4)
    }

    @Test func theDepthCheckDoesNotWalkTheTree() {
        let r = Self.shared
        #expect(!r.nests(deeperThan: 81))
        #expect(r.nests(deeperThan: 80))
        #expect(throws: SagaError.self) { try Value.checkDepth(of: r, at: Value.maxDepth - 80) }
    }

    /// A list that holds each list before it (`xs = xs + [xs]`, repeated) reaches its shared
    /// parts at every depth: each is measured once, not once a depth (which made a run of 500
    /// such appends take minutes).
    @Test func theDepthCheckMeasuresAPartReachedAtManyDepthsOnce() {
        var xs: Value = .list([])
        for _ in 0..<400 {
            guard case .list(let items) = xs else { return }
            xs = .list(items + [xs])
        }
        #expect(!xs.nests(deeperThan: 401))
        #expect(xs.nests(deeperThan: 400))
        #expect(xs.nests(deeperThan: 200))
    }

    /// With a small limit, so that the test does not write 256 MiB.
    @Test func itsTextIsCutNotWrittenWhole() throws {
        let r = Self.shared
        #expect(throws: SagaError.self) { try r.checkedCanonicalJSON(limit: 100_000) }
        let (count, truncated) = CanonicalJSONWriter.withCanonicalJSON(of: r, limit: 100_000) { ($0.count, $1) }
        #expect(truncated)
        #expect(count <= 100_000)
        #expect(try Value.record(Record()).checkedCanonicalJSON(limit: 2) == "{}")
        #expect(throws: SagaError.self) { try Value.string("abc").checkedCanonicalJSON(limit: 4) }
    }
}
