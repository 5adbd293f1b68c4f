// Issue 6's workloads written for redux-saga, the reference our figures are held against.
// `Sources/sagabench/Scripts/redux-saga-compare.py` runs it beside ours. By itself, against the
// redux-saga 1.4.3 sources of an anchor folder (its runtime/register.mjs hook resolves
// `redux-saga`; `redux` resolves from a node_modules folder beside this file or above it, so
// link ANCHOR/node_modules there):
//
//   NODE_ENV=production node --import ANCHOR/runtime/register.mjs redux-saga-bench.mjs WORKLOAD COUNT
//
// or, from a directory whose node_modules holds redux-saga and redux
// (`npm install redux-saga@1.4.3 redux@4`):
//
//   NODE_ENV=production node [--expose-gc] redux-saga-bench.mjs WORKLOAD COUNT
//
// Prints one JSON line: {"name", "count", "ok", "seconds", "rate", "cpuSeconds", "cpuRate", …}
// (cpuSeconds: the process's user and system time over the same phase, all threads); exits 1
// if the workload did not do what it says (its final count is checked).
import createSagaMiddleware from 'redux-saga'
import { all, call, delay, fork, put, race, select, take, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects'
import { applyMiddleware, createStore } from 'redux'

const [name, countText] = process.argv.slice(2)
const n = Number(countText)
/// A moment: its wall clock and the process's CPU time.
const now = () => ({ wall: process.hrtime.bigint(), cpu: process.cpuUsage() })
/// The wall and CPU seconds from one moment to another.
const seconds = (from, to) => ({
  wall: Number(to.wall - from.wall) / 1e9,
  cpu: (to.cpu.user - from.cpu.user + to.cpu.system - from.cpu.system) / 1e6,
})

/// A store with the saga middleware, and the errors that reached its root saga.
function storeWith(reducer) {
  const errors = []
  const sagas = createSagaMiddleware({ onError: (e) => errors.push(String(e)) })
  const store = createStore(reducer, applyMiddleware(sagas))
  return { store, sagas, errors }
}

/// select + put per outside action, by the saga `main` starts with the body that does them:
/// sagabench's every-select-put and its kin.
function selectPut(main) {
  const { store, sagas, errors } = storeWith((state = { count: 0 }, a) =>
    a.type === 'add' ? { count: state.count + a.by } : state)
  sagas.run(main, function* body() {
    yield select((s) => s.count)
    yield put({ type: 'add', by: 1 })
  })
  const start = now()
  for (let i = 0; i < n; i++) store.dispatch({ type: 'request' })
  const time = seconds(start, now())
  return check(time, errors, store.getState().count === n, `count ${store.getState().count}`)
}

/// One watcher (takeEvery, takeLatest, takeLeading) running the body: every-select-put and
/// its `latest` and `leading` twins.
function watcherSelectPut(watcher) {
  return selectPut(function* main(body) {
    yield watcher('request', body)
  })
}

/// every-select-put's watcher written out, as a redux-saga user writes it by hand:
/// `while (true) { take; fork(body) }`: sagabench's fork-loop-select-put.
function forkLoopSelectPut() {
  return selectPut(function* main(body) {
    while (true) {
      yield take('request')
      yield fork(body)
    }
  })
}

/// `combinator(f, i)` (a race or an all of calls of f, a saga function returning its argument)
/// n times in a loop, `value` of each result summed and checked against `expected`.
async function combinatorLoop(combinator, value, expected) {
  const { sagas, errors } = storeWith((state = {}) => state)
  function* f(x) {
    return x
  }
  const start = now()
  const task = sagas.run(function* main() {
    let sum = 0
    for (let i = 0; i < n; i++) sum += value(yield combinator(f, i))
    return sum
  })
  const sum = await task.toPromise()
  return check(seconds(start, now()), errors, sum === expected, `sum ${sum}`)
}

/// `race { a: call f(i), b: delay 1s }`: sagabench's race-call.
const raceCall = () => combinatorLoop((f, i) => race({ a: call(f, i), b: delay(1000) }), (r) => r.a, (n * (n - 1)) / 2)

/// `all { a: call f(i), b: call f(1) }`: sagabench's all-call.
const allCall = () =>
  combinatorLoop((f, i) => all({ a: call(f, i), b: call(f, 1) }), (r) => r.a + r.b, (n * (n - 1)) / 2 + n)

/// `loop { take "ping"; put "pong" }`, fed n outside pings. No reducer of its own, as
/// sagabench's take-put-loop has none: the saga counts its puts.
function takePutLoop() {
  const { store, sagas, errors } = storeWith((state = {}) => state)
  let pongs = 0
  sagas.run(function* main() {
    while (true) {
      yield take('ping')
      yield put({ type: 'pong' })
      pongs += 1
    }
  })
  const start = now()
  for (let i = 0; i < n; i++) store.dispatch({ type: 'ping' })
  const time = seconds(start, now())
  return check(time, errors, pongs === n, `pongs ${pongs}`)
}

/// n x `yield call(fn, i)` of a plain function, fn = i => i + 1, each result checked: the anchor's
/// bench/d_calls.mjs. redux-saga calls a plain function and goes on at once, its fastest `call`.
function callLoop() {
  const { sagas, errors } = storeWith((state = {}) => state)
  const fn = (i) => i + 1
  const start = now()
  const task = sagas.run(function* main() {
    let sum = 0
    for (let i = 0; i < n; i++) {
      const r = yield call(fn, i)
      if (r !== i + 1) throw new Error(`bad result ${r} for ${i}`)
      sum += r
    }
    return sum
  })
  const time = seconds(start, now())
  // Everything here is synchronous: a task still running has stopped for good.
  return check(time, errors, !task.isRunning() && task.result() === (n * (n + 1)) / 2, 'stopped before the end')
}

/// `call` of a saga function (a generator returning 1), n times in a loop: each call runs the
/// generator as a child task, as a Sagas `call` of a `func` does.
async function callSagaLoop() {
  const { sagas, errors } = storeWith((state = {}) => state)
  function* one() {
    return 1
  }
  const start = now()
  const task = sagas.run(function* main() {
    let i = 0
    while (i < n) i += yield call(one)
    return i
  })
  if (task.isRunning()) return check(seconds(start, now()), errors, false, 'stopped before the end')
  const i = await task.toPromise()
  return check(seconds(start, now()), errors, i === n, `i ${i}`)
}

/// n forks blocked on `take "go"`, then one action wakes them all: the time of both, and
/// the heap each blocked task takes (run node with --expose-gc for it).
async function forkWake() {
  const heap = () => {
    globalThis.gc?.()
    return process.memoryUsage().heapUsed
  }
  const { store, sagas, errors } = storeWith((state = {}) => state)
  const before = heap()
  const start = now()
  const task = sagas.run(function* main() {
    for (let i = 0; i < n; i++) yield fork(function* blocked() { yield take('go') })
  })
  const forked = now()
  const bytesPerTask = (heap() - before) / n
  const woken = now()
  store.dispatch({ type: 'go' })
  const wake = seconds(woken, now())
  const forking = seconds(start, forked)
  const time = { wall: forking.wall + wake.wall, cpu: forking.cpu + wake.cpu }
  const result = check(time, errors, !task.isRunning(), 'tasks still blocked after the wake-up')
  return { ...result, bytesPerTask, wakeSeconds: wake.wall }
}

function check(time, errors, ok, what) {
  if (errors.length > 0) return { ok: false, seconds: time.wall, error: errors[0] }
  if (!ok) return { ok: false, seconds: time.wall, error: what }
  return { ok: true, seconds: time.wall, rate: n / time.wall, cpuSeconds: time.cpu, cpuRate: n / time.cpu }
}

const workloads = {
  'every-select-put': () => watcherSelectPut(takeEvery),
  'latest-select-put': () => watcherSelectPut(takeLatest),
  'leading-select-put': () => watcherSelectPut(takeLeading),
  'take-put-loop': takePutLoop,
  call: callLoop,
  'call-saga': callSagaLoop,
  'fork-wake': forkWake,
  'fork-loop-select-put': forkLoopSelectPut,
  'race-call': raceCall,
  'all-call': allCall,
}
if (!(name in workloads) || !Number.isSafeInteger(n) || n < 1) {
  console.error(`usage: node redux-saga-bench.mjs ${Object.keys(workloads).join('|')} COUNT`)
  process.exit(2)
}
const result = await workloads[name]()
console.log(JSON.stringify({ name, count: n, ...result }))
if (!result.ok) process.exitCode = 1
