import Testing

@testable import SagaStore

/// An actor that owns its store, made in its synchronous `init` (where `#isolation` is `nil`)
/// and bound to it with `bind(to:)`.
private actor Library {
    let store: Store<[Int], Int>

    init() {
        store = Store(initialState: [], reducer: { (state: inout [Int], item: Int) in state.append(item) })
        store.bind(to: self)
    }

    var isTheStoresActor: Bool { store.isolation === self }
    var dispatcher: StoreDispatcher<Int> { store.dispatcher }
    var items: [Int] { store.state }

    func waitForItems(_ count: Int) async {
        for await state in store.states() where state.count == count { break }
    }
}

@Suite struct StoreBindingTests {
    @Test(.timeLimit(.minutes(5))) func aStoreBoundInAnActorsInitDeliversOnThatActorInOrder() async {
        let library = Library()
        #expect(await library.isTheStoresActor)
        let send = await library.dispatcher
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    for i in 0..<50 { send(sender * 100 + i) }
                }
            }
        }
        await library.waitForItems(200)
        let items = await library.items
        #expect(items.count == 200)
        for sender in 0..<4 {
            #expect(items.filter { $0 / 100 == sender } == (0..<50).map { sender * 100 + $0 })
        }
    }
}
