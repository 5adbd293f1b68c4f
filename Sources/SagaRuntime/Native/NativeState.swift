import SagaCore

/// What a task running a saga written in Swift needs besides what every task has: kept
/// apart so that the many scripted tasks do not carry it.
final class NativeState {
    /// The saga's function.
    let saga: NativeSaga
    /// Connects the saga's Swift task to the scheduler.
    let driver = NativeDriver()
    /// Whether its Swift task has started.
    var started = false
    /// The value an effect gave while the task yielded to the work it caused.
    var pending: Value?

    init(saga: @escaping NativeSaga) {
        self.saga = saga
    }
}
