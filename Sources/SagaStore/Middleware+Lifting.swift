extension Middleware {
    /// This middleware in a store of a wider state and action: it sees the actions `action`
    /// finds (and passes every other one on), reads its part of the state through `state`,
    /// and what it dispatches is wrapped by `action` on its way into the store.
    ///
    /// ```swift
    /// let store = Store(initialState: AppState(), reducer: appReducer,
    ///                   middleware: [logger.lifted(state: \.songs, action: songsPath)])
    /// ```
    public func lifted<GlobalState, GlobalAction>(
        state: @escaping (GlobalState) -> State, action: ActionPath<GlobalAction, Action>
    ) -> Middleware<GlobalState, GlobalAction> {
        let body = self.body
        let extract = action.extract
        let embed = action.embed
        return Middleware<GlobalState, GlobalAction> { api, next in
            let step = body(MiddlewareAPI(lifting: api, state: state, action: action)) { next(embed($0)) }
            return { global in
                guard let local = extract(global) else { return next(global) }
                step(local)
            }
        }
    }
}
