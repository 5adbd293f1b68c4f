// What `sagarun graph` draws, independent of the syntax it is drawn in: ProgramGraph renders
// this one model as Mermaid or as Graphviz DOT, so both always show the same diagram.

/// The nodes and edges of a program's diagram, already in output order with stable ids.
///
/// Built by ``GraphBuilder``; rendered by ``ProgramGraph``. Edges refer to nodes by their
/// position in ``nodes``.
struct GraphModel: Equatable {
    /// What a node stands for; each kind has its own shape.
    enum NodeKind: Equatable {
        case saga, function, host, reducer, action, channel
        /// Middleware that answers actions with actions (the persistence middleware).
        case middleware
    }

    /// One box of the diagram.
    struct Node: Equatable {
        /// Valid as a Mermaid and as a DOT identifier: `[A-Za-z_][A-Za-z0-9_]*`, unique.
        var id: String
        var kind: NodeKind
        /// The text shown, not yet escaped for either syntax.
        var label: String
    }

    /// What an edge means; each kind has its own line style.
    enum EdgeKind: Int, Comparable {
        /// Saga or function → function it calls (solid).
        case call
        /// Saga or function → function it forks (dashed).
        case fork
        /// Saga or function → function it spawns (dotted).
        case spawn
        /// Saga or function → action type it puts, or channel it puts into.
        case put
        /// Action type or channel → saga, function or channel that takes from it (with `take`, a
        /// watcher or an `actionChannel`; the label says which).
        case take
        /// Action type → reducer it runs.
        case reduce
        /// Exact action type → a glob pattern (or `*`) that matches it.
        case matches

        static func < (a: EdgeKind, b: EdgeKind) -> Bool { a.rawValue < b.rawValue }
    }

    /// One arrow of the diagram.
    struct Edge: Equatable {
        var from: Int
        var to: Int
        var kind: EdgeKind
        /// The text on the arrow: the effect's keyword (`call`, `every`, `put`, …).
        var label: String
    }

    var nodes: [Node]
    var edges: [Edge]
}
