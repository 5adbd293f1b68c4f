/// Where one module's actions live inside an app's action type: how to wrap one (usually an
/// enum case) and how to find one.
///
/// With it, a module's middleware and reducer work in the app's store, as SwiftRex's `lift`
/// and TCA's `Scope` do.
///
/// ```swift
/// enum AppAction: Sendable { case songs(Songs.Action), play(id: String) }
/// let songsPath = ActionPath<AppAction, Songs.Action>(embed: AppAction.songs) {
///     if case .songs(let action) = $0 { action } else { nil }
/// }
/// ```
public struct ActionPath<Root, Value>: Sendable {
    /// Wraps a module's action in the app's.
    public let embed: @Sendable (Value) -> Root
    /// The module's action an app's action wraps, if it wraps one.
    public let extract: @Sendable (Root) -> Value?

    /// A path from its two directions.
    public init(embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?) {
        self.embed = embed
        self.extract = extract
    }

    /// `reducer`, working in a wider state: on the part of it at `state`, for the actions this
    /// path finds.
    ///
    /// Other actions leave the state alone.
    ///
    /// ```swift
    /// let reduceSongs = songsPath.lift(Songs.makeReducer(), state: \AppState.songs)
    /// ```
    public func lift<State, GlobalState>(
        _ reducer: @escaping (inout State, Value) -> Void, state: WritableKeyPath<GlobalState, State>
    ) -> (inout GlobalState, Root) -> Void {
        let extract = self.extract
        return { global, action in
            if let local = extract(action) { reducer(&global[keyPath: state], local) }
        }
    }
}
