#!/usr/bin/env bash
# Instructions per item of sagabench workloads, counted by callgrind (repeatable whatever else
# the machine does): the difference between a run of N items and one of 2N, divided by N, so
# that start-up and setup costs cancel out.
#
#   Sources/sagabench/Scripts/callgrind-per-item.sh call:50000 take-put-loop:20000 every-select-put:20000
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository root
scratch=${SCRATCH:-.build-bench}
swift build -c release --scratch-path "$scratch" --product sagabench 2>&1 | tail -n 1
bench="$scratch/release/sagabench"
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" "$1" --count "$2" 2>&1 \
    | awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}
for spec in "${@:-call:50000 take-put-loop:20000 every-select-put:20000 fork-wake:20000}"; do
  for item in $spec; do
    workload=${item%:*}
    n=${item#*:}
    a=$(count "$workload" "$n")
    b=$(count "$workload" $((2 * n)))
    echo "$workload: $(((b - a) / n)) instructions per item"
  done
done
