import SagaCore
import SagaLanguage

extension Interpreter {
    /// Adds a root saga written in Swift; root sagas start in the order the program declares
    /// them, then the native ones in the order they were added.
    ///
    /// Call before ``run(input:isolation:)``.
    public func addSaga(_ name: String, _ saga: @escaping NativeSaga) {
        guard !started else {
            output.error("error: saga \(name) was added after the interpreter started; add sagas before")
            return
        }
        nativeRoots.append((name, saga))
    }

    /// A task for a native saga.
    func nativeTask(name: String, kind: SagaTask.Kind, parent: SagaTask?, _ saga: @escaping NativeSaga) -> SagaTask {
        let task = newTask(
            name: name, location: .unknown, kind: kind, parent: parent, env: [],
            body: Block(statements: [], location: .unknown))
        task.native = NativeState(saga: saga)
        return task
    }

    /// Runs a native saga until it blocks on an effect or ends: resumes its Swift task with
    /// what it waited for, then performs the effects it asks for until one blocks.
    func step(_ task: SagaTask, isolation: isolated (any Actor)? = #isolation) async {
        guard let native = task.native else { return }
        let driver = native.driver
        let saga = native.saga
        let resumption = task.resumption
        task.resumption = .start
        if !native.started {
            native.started = true
            if case .unwind(let completion) = resumption {
                taskTree.bodyEnded(task, completion)
                return
            }
            let effects = SagaEffects(driver: driver)
            Task.detached {
                do {
                    try await saga(effects)
                    driver.finish(.success(()))
                } catch is SagaEffects.Ended {
                    driver.finish(.success(()))
                } catch is SagaEffects.Cancelled {
                    driver.finish(.success(()))
                } catch let error as SagaError {
                    driver.finish(.failure(error))
                } catch {
                    driver.finish(.failure(SagaError(kind: "Error", message: String(describing: error))))
                }
            }
        } else {
            switch resumption {
            case .start:
                driver.resume(.success(native.pending ?? .null))
                native.pending = nil
            case .value(let v):
                driver.resume(.success(v))
            case .error(let failure):
                driver.resume(.failure(failure.error))
            case .unwind(.end):
                driver.resume(.failure(SagaEffects.Ended()))
            case .unwind:
                driver.resume(.failure(SagaEffects.Cancelled()))
            }
        }
        while true {
            switch await driver.next() {
            case .finished(.success):
                taskTree.bodyEnded(task, task.isCancelling ? .cancel : .normal)
                return
            case .finished(.failure(let error)):
                taskTree.bodyEnded(task, .throwError(Failure(error: error, trace: trace(task, at: task.location))))
                return
            case .effect(.selectState):
                guard let snapshotting = binding as? any StateSnapshotting else {
                    driver.resume(.failure(SagaError.typeError("a typed select needs an app's store")))
                    continue
                }
                guard let state = snapshotting.stateSnapshot() else {
                    driver.resume(.failure(SagaError(kind: "StoreError", message: "the app's store has been freed")))
                    continue
                }
                driver.resume(outcome: .success(.snapshot(state)))
            case .effect(let effect):
                switch performNative(effect, task) {
                case .success(let value?):
                    if scheduler.stepMadeWork {
                        native.pending = value
                        yieldTask(task)
                        return
                    }
                    driver.resume(.success(value))
                case .success(nil):
                    return
                case .failure(let error):
                    driver.resume(.failure(error))
                }
            }
        }
    }

    /// The language's effect for a native race or all entry, with its operands as literals.
    private func astEffect(_ effect: SagaEffect) throws(SagaError) -> Effect {
        let at = SourceLocation.unknown
        switch effect {
        case .take(let patterns):
            let ps = patterns.isEmpty ? ["*"] : patterns
            let pattern: Expr =
                ps.count == 1 ? .literal(.string(ps[0]), at) : .list(ps.map { .literal(.string($0), at) }, at)
            return .take(.expr(pattern), where: nil, at)
        case .delay(let ms):
            return .delay(.literal(.int(ms), at), value: nil, at)
        case .call(let name, let args):
            guard host[name] != nil else {
                throw SagaError.noHostFunction(name, in: program)
            }
            return .call(.host(name, at), args.map { .literal($0, at) }, at)
        case .put(let action):
            return .put(.literal(action, at), nil, at)
        case .select:
            return .select(nil, at)
        }
    }

    /// Performs a native saga's effect: a value when it completes at once, `nil` when the
    /// task blocked on it.
    private func performNative(_ effect: NativeEffect, _ task: SagaTask) -> Result<Value?, SagaError> {
        do throws(SagaError) {
            switch effect {
            case .take(let spec):
                let pattern = try ActionPattern(
                    spec.patterns.count == 1 ? .string(spec.patterns[0]) : .list(spec.patterns.map { .string($0) }))
                block(task, on: .take)
                addTaker(Taker(task, pattern: pattern))
                return .success(nil)
            case .takeFrom(let value):
                guard case .handle(let h) = value, h.kind == .channel, let channel = channel(of: h) else {
                    throw SagaError.typeError("take(from:) needs a channel, got \(value.kindName)")
                }
                if let message = channel.messages.popFirst() { return .success(message) }
                if channel.isClosed {
                    if let failure = channel.failure { throw failure }
                    // Ends as a take at END does: the saga gets `Ended` when it next runs.
                    task.token &+= 1
                    task.resumption = .unwind(.end)
                    scheduler.schedule(task)
                    return .success(nil)
                }
                wait(task, on: channel)
                return .success(nil)
            case .put(let action):
                guard case .record(let r) = action, case .string? = r["type"] else {
                    throw SagaError.typeError("an action must be a record with a string 'type'")
                }
                block(task, on: .put)
                scheduler.enqueue(action, putter: task)
                return .success(nil)
            case .select:
                return .success(binding.stateValue)
            case .delay(let ms):
                block(task, on: .timer(0))
                let due = try due(after: min(max(0, ms), Interpreter.maxDelay))
                task.wait = .timer(scheduler.timers.add(due: due, task: task, token: task.token))
                return .success(nil)
            case .call(let name, let args):
                try countCall(.host(name, .unknown), at: task.location)
                guard let function = host[name] else {
                    throw SagaError.noHostFunction(name, in: program)
                }
                block(task, on: .host(0))
                task.wait = .host(startHostCall(name, function, args, task))
                return .success(nil)
            case .callFunction(let function):
                try countCall(.host("function", .unknown), at: task.location)
                block(task, on: .host(0))
                task.wait = .host(hostCalls.start(function, [], task: task, token: task.token))
                return .success(nil)
            case .selectState:
                return .success(binding.stateValue)
            case .fork(let saga):
                let child = nativeTask(name: "native fork", kind: .attached, parent: task, saga)
                task.adopt(child)
                scheduler.schedule(child)
                return .success(child.handle)
            case .join(let handle):
                switch try join(handle, task) {
                case .value(let v): return .success(v)
                case .suspended, .entered, .dispatched, .resumedAfterChild, .resumedAfterChildStored:
                    return .success(nil)
                case .completion(.throwError(let f)): throw f.error
                case .completion:
                    throw SagaError(kind: "Cancelled", message: "the joined task was cancelled")
                }
            case .race(let entries), .all(let entries):
                let isRace: Bool
                if case .race = effect { isRace = true } else { isRace = false }
                var effects: [(Effect, [Value])] = []
                for (_, e) in entries { effects.append((try astEffect(e), [])) }
                switch startCombinator(
                    isRace ? .race : .allRecord, entries.map(\.0), count: effects.count, task, .unknown,
                    entry: { effects[$0] })
                {
                case .value(let v): return .success(v)
                default: return .success(nil)
                }
            case .cancel(let handle):
                guard case .handle(let h) = handle, let target = h.object as? SagaTask else {
                    throw SagaError.typeError("cancel needs a task, got \(handle.kindName)")
                }
                scheduler.schedule(taskTree.cancelWork(target))
                return .success(.null)
            }
        } catch {
            return .failure(error)
        }
    }
}
