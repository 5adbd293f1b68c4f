/// The thread of a store that lives on an actor (the main actor, for an app's UI store): hops
/// go through one queue, so they run on the actor in the order they were posted.
@usableFromInline
struct ActorStoreThread: StoreThread {
    private let inbox: StoreInbox<@Sendable () -> Void>

    /// The thread of a store living on `actor`.
    @usableFromInline
    init(actor: any Actor) {
        inbox = StoreInbox(actor: actor) { body in body() }
    }

    @usableFromInline
    func post(_ body: @escaping @Sendable () -> Void) {
        inbox.send(body)
    }

    @usableFromInline
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            inbox.send { continuation.resume(returning: body()) }
        }
    }
}
