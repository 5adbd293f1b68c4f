#!/usr/bin/env bash
# The long crash run of issue 3: the SagaCrashTests test with 300 random SIGKILLs of a saving
# `sagarun` instead of CI's 5. Extra arguments go to `swift build` and `swift test`
# (`Sources/sagabench/Scripts/crash-soak.sh -c release`); SAGA_CRASH_ROUNDS and
# SAGA_CRASH_SEED are honoured.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository root

export SAGA_CRASH_ROUNDS="${SAGA_CRASH_ROUNDS:-300}"
echo "== swift build $*"
swift build "$@" 2>&1 | tail -n 3
echo "== swift test --filter SagaCrashTests (SAGA_CRASH_ROUNDS=$SAGA_CRASH_ROUNDS)"
swift test "$@" --filter SagaCrashTests 2>&1 | tee /tmp/saga-crash-soak.log | grep -E "✘|↳|error:|Test run with|crash test:" || true
# A skipped test (no sagarun built) also "passes": the soak must not.
if grep -qE "✘|Test run with .* failed| skipped" /tmp/saga-crash-soak.log || ! grep -q "Test run with .* passed" /tmp/saga-crash-soak.log; then
  echo "crash soak FAILED (full log: /tmp/saga-crash-soak.log)"
  exit 1
fi
echo "crash soak passed: $SAGA_CRASH_ROUNDS kills"
