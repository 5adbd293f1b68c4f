#!/usr/bin/env bash
# Issue 3's persistence figures: sagabench's save-loop, save-many and reopen (release build,
# median of RUNS runs, default 3), then the SQLite reference on the same machine.
# Run it on a quiet machine: the figures are bound by fdatasync latency and by the CPU.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository root
runs="${RUNS:-3}"
scratch="${SCRATCH:-.build-bench}"

echo "== swift build -c release --scratch-path $scratch --product sagabench"
swift build -c release --scratch-path "$scratch" --product sagabench 2>&1 | tail -n 1
bench="$scratch/release/sagabench"

results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for ((i = 1; i <= runs; i++)); do
  echo "== run $i of $runs: $bench save-loop save-many reopen --json"
  "$bench" save-loop save-many reopen --json >>"$results"
done

python3 - "$results" "$runs" <<'PY'
import json, re, statistics, sys
text = open(sys.argv[1]).read()
rows = {}
for chunk in re.findall(r"\[.*?\]\s*(?=\[|$)", text, re.S):
    for row in json.loads(chunk):
        rows.setdefault(row["workload"], []).append(row)
print("\nsagabench, median of %s runs" % sys.argv[2])
print("%-10s %9s %9s  %s" % ("workload", "count", "seconds", "result"))
for name, rs in rows.items():
    med = lambda key: statistics.median(r[key] for r in rs)
    if name == "reopen":
        print("%-10s %9d %9.3f  open %.0f ms + query by id %.0f ms; fill %.0f saves/s (FileStore, 1,000 writers); %.0f MB" % (
            name, rs[0]["count"], med("seconds"), med("open ms"), med("query-by-id ms"),
            rs[0]["count"] / (med("fill ms") / 1e3), med("store megabytes")))
    else:
        print("%-10s %9d %9.3f  %.0f %s/s (runs: %s)" % (
            name, rs[0]["count"], med("seconds"), med("perSecond"), rs[0]["unit"],
            ", ".join("%.0f" % r["perSecond"] for r in rs)))
PY

echo
echo "== python3 Sources/sagabench/Scripts/sqlite-reference.py --runs $runs"
python3 Sources/sagabench/Scripts/sqlite-reference.py --runs "$runs"
