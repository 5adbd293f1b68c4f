import SagaStore

/// Lifts a persistence controller's middleware, typed over the controller's actions, into
/// the app's store: the app's middleware passes each wrapped controller action on to it.
///
/// The controller's middleware runs in a small store of its own (with no state), which is
/// what gives it a `MiddlewareAPI`; it only performs the action, and its results come back
/// to the app's store through its scheduler.
enum ControllerLink {
    /// The app's middleware for the controller `middleware`; `unwrap` picks its actions out.
    static func middleware<ControllerAction>(
        _ middleware: Middleware<Void, ControllerAction>, unwrap: @escaping (AppAction) -> ControllerAction?
    ) -> Middleware<AppState, AppAction> {
        let controllerStore = Store<Void, ControllerAction>(
            initialState: (), reducer: { _, _ in }, middleware: [middleware])
        return Middleware { _, next in
            { action in
                next(action)
                if let wrapped = unwrap(action) { controllerStore.dispatch(wrapped) }
            }
        }
    }
}
