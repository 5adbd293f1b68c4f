/// A binding whose store takes the actor an interpreter starts on as its own, when it has
/// none yet.
///
/// A store made in an actor's synchronous `init` has no actor (`#isolation` is `nil` there)
/// and is taken to be the main actor's until `Store.bind(to:)`. An interpreter starts on the
/// store's actor, so the actor it starts on is the store's: adopting it there spares the app
/// the program stop that the store's dispatcher would make at its first use off the main
/// actor (the persistence and task middleware use it).
protocol RunActorAdopting {
    /// Makes `actor` the store's actor, if the store has none and its dispatcher is not made.
    func adopt(_ actor: any Actor)
}
