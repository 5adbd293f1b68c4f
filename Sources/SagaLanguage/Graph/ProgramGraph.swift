// `sagarun graph`: a diagram of a program's sagas, functions and reducers and of the action
// types that flow between them, as Mermaid or Graphviz DOT text.

/// Draws a checked ``Program`` as a diagram, so that a reader sees the flow of actions at a
/// glance.
///
/// Nodes: root sagas, saga functions, the host functions they name, the persistence
/// middleware (where the program uses its actions), reducers (optional) and action types. Edges:
/// - saga or function → function: `call` (solid), `fork` (dashed), `spawn` (dotted);
/// - saga or function → action type: `put`;
/// - action type → saga or function: `take`, `actionChannel`, or the watcher's keyword
///   (`every`, `latest`, `leading`, `throttle`, `debounce`); a watcher is drawn as part of
///   the saga or function that starts it;
/// - action type → reducer: `reduce`;
/// - exact action type → a glob pattern in the diagram that matches it: `matches`;
/// - `persistence/` request type → the persistence middleware: `handles`; the middleware →
///   each reply type in the diagram (`persistence/saved`, …): `put`.
///
/// An action node is a type (or pattern) written as a literal string in a `take`, watcher,
/// `actionChannel`, reducer or `put` (`put {type: "t", …}` included), each element of a
/// list-literal pattern, and `*`; a pattern or type computed at run time, and a channel's
/// `take`/`put`, is drawn as the one node `?`. What a `fork`/`spawn` block, a watcher body
/// or a `race`/`all`/`retry` entry does is drawn as done by the saga or function it is
/// written in.
///
/// The output is deterministic: nodes are sagas, functions and host functions sorted by
/// name, reducers in declaration order (`red_0` is the first), action types sorted (`?`
/// last); edges are sorted by their ends and each appears once. Ids (`saga_main`,
/// `fn_api_fetchUser`, `host_log_send`, `mw_persistence`, `red_0`, `act_3`) are valid in both
/// syntaxes.
///
/// ```swift
/// if let program = Frontend().compile(path: "counter.saga").program {
///     print(ProgramGraph.mermaid(program), terminator: "")
/// }
/// ```
package enum ProgramGraph {
    /// The diagram as a Mermaid flowchart (`flowchart LR`), ending with a newline.
    ///
    /// Labels are quoted, with `"`, `#`, `<`, `>`, `&` and `` ` `` written as Mermaid entity
    /// codes, so any action type or function name is shown as it is. Mermaid draws `fork`
    /// and `spawn` alike as a dotted line; a `linkStyle` line at the end makes `spawn`
    /// edges finely dotted.
    ///
    /// - Parameters:
    ///   - program: a checked program.
    ///   - includeReducers: whether reducers and their `reduce` edges are drawn.
    /// - Returns: Mermaid source, ready for a fenced ` ```mermaid ` block.
    package static func mermaid(_ program: Program, includeReducers: Bool = true) -> String {
        renderMermaid(GraphBuilder(program: program, includeReducers: includeReducers).model())
    }

    /// The diagram as a Graphviz DOT `digraph`, ending with a newline.
    ///
    /// Labels are quoted with `\` and `"` escaped; `fork` edges are `style=dashed`, `spawn`
    /// edges `style=dotted`, `matches` edges dotted with a hollow arrowhead.
    ///
    /// - Parameters:
    ///   - program: a checked program.
    ///   - includeReducers: whether reducers and their `reduce` edges are drawn.
    /// - Returns: DOT source, for `dot -Tsvg`.
    package static func dot(_ program: Program, includeReducers: Bool = true) -> String {
        renderDOT(GraphBuilder(program: program, includeReducers: includeReducers).model())
    }
}
