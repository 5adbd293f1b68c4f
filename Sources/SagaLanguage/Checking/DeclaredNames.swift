import Dispatch
import SagaCore
import Synchronization

/// What a program declares under each name (functions and root sagas share one namespace),
/// indexed before any body is checked, so that a function may be called before it is declared.
///
/// A large program's names are split in two by a bit of each name's hash, and each half is
/// indexed on a thread of its own: on one thread, a large program's names take a noticeable
/// part of its check, most of it cache misses in the table and first touches of its pages. Each half
/// reads every head in the program's order and takes only its own names, so that which
/// declaration comes first, and so which ones are redeclarations, is as one thread finds it.
struct DeclaredNames: Sendable {
    /// What is declared under one name: one entry per name, where it was first declared.
    struct Entry: Sendable {
        /// Where the name was first declared, for "previously declared here".
        var location: SourceLocation
        /// The index in ``Program/functions`` of the first function of this name, or -1.
        var function = -1
        /// Whether a root saga has this name.
        var isSaga = false
    }

    /// A declaration whose name an earlier one took.
    struct Redeclaration: Sendable {
        /// Its place among the program's sagas and functions, in order.
        var ordinal: Int
        var name: String
        var location: SourceLocation
        /// Where the name was first declared.
        var previous: SourceLocation
    }

    /// One half of the names (or all of them): each name's entry, by a table of names.
    private struct Part: Sendable {
        var table: NameTable
        var entries: [Entry] = []
        /// The functions that are the first of their names.
        var owners: [Int] = []
        var redeclarations: [Redeclaration] = []

        init(capacity: Int) {
            table = NameTable(capacity: capacity)
            entries.reserveCapacity(capacity)
        }

        /// Enters a declared name (a saga's when `function` is -1), or notes its redeclaration.
        mutating func add(_ name: String, hash: UInt64, at location: SourceLocation, function: Int, ordinal: Int) {
            guard let index = table.value(for: name, hash: hash) else {
                table.set(entries.count, for: name, hash: hash)
                entries.append(Entry(location: location, function: function, isSaga: function < 0))
                if function >= 0 { owners.append(function) }
                return
            }
            if function < 0 {
                entries[index].isSaga = true
            } else if entries[index].function < 0 {
                entries[index].function = function
                owners.append(function)
            }
            redeclarations.append(
                Redeclaration(
                    ordinal: ordinal, name: name, location: location, previous: entries[index].location))
        }
    }

    /// How many sagas and functions make a program large enough to index on two threads.
    static let parallelThreshold = 16_384

    private var parts: [Part]

    /// No names.
    init() {
        parts = [Part(capacity: 8)]
    }

    /// The names of the sagas and functions among `heads` (unit by unit, in the program's
    /// order), `count` of them; the functions are numbered in order from 0.
    ///
    /// - Returns: the index, the functions that are the first of their names (in no
    ///   particular order), and each declaration of a name declared before it, in the
    ///   program's order.
    static func index(
        _ heads: [[DeclarationHead]], count: Int
    ) -> (names: DeclaredNames, owners: [Int], redeclarations: [Redeclaration]) {
        var names = DeclaredNames()
        guard count >= parallelThreshold else {
            names.parts = [indexPart(heads, capacity: count, part: 0, of: 1)]
            return (names, names.parts[0].owners, names.parts[0].redeclarations)
        }
        let results = Mutex<[Part?]>([nil, nil])
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let indexed = indexPart(heads, capacity: count / 2 + count / 16, part: part, of: 2)
            results.withLock { $0[part] = indexed }
        }
        names.parts = results.withLock { $0.compactMap { $0 } }
        guard names.parts.count == 2 else { return index(heads, count: 0) }  // never: both parts ran
        // Each part's redeclarations are in the program's order; merged, they are the one
        // thread's.
        let owners = names.parts[0].owners + names.parts[1].owners
        let redeclarations = (names.parts[0].redeclarations + names.parts[1].redeclarations).sorted {
            $0.ordinal < $1.ordinal
        }
        return (names, owners, redeclarations)
    }

    /// Which part of `parts` a name of hash `hash` is in: the hash's top bit, which the
    /// table's slots (its low bits) do not use.
    @inline(__always)
    private static func part(of hash: UInt64, parts: Int) -> Int {
        parts == 1 ? 0 : Int(truncatingIfNeeded: hash >> 63)
    }

    /// Indexes the names of `heads` that are in part `part` of `parts`.
    private static func indexPart(_ heads: [[DeclarationHead]], capacity: Int, part: Int, of parts: Int) -> Part {
        var indexed = Part(capacity: capacity)
        var ordinal = 0
        var functions = 0
        for unit in heads {
            for head in unit {
                let name: String
                let location: SourceLocation
                var function = -1
                switch head {
                case .saga(let sagaName, let at):
                    name = sagaName
                    location = at
                case .function(let functionName, _, let at):
                    name = functionName
                    location = at
                    function = functions
                    functions += 1
                case .reducer, .extern, .other:
                    continue
                }
                ordinal += 1
                let hash = NameTable.hash(name)
                guard Self.part(of: hash, parts: parts) == part else { continue }
                indexed.add(name, hash: hash, at: location, function: function, ordinal: ordinal - 1)
            }
        }
        return indexed
    }

    /// What is declared under `name`, if anything.
    func entry(named name: String) -> Entry? {
        let hash = NameTable.hash(name)
        let part = parts[Self.part(of: hash, parts: parts.count)]
        guard let index = part.table.value(for: name, hash: hash) else { return nil }
        return part.entries[index]
    }

    /// Calls `body` with the name of every function, in no particular order.
    func forEachFunctionName(_ body: (String) -> Void) {
        for part in parts {
            part.table.forEach { name, index in
                if part.entries[index].function >= 0 { body(name) }
            }
        }
    }
}
