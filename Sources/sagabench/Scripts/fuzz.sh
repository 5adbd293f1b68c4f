#!/usr/bin/env bash
# Builds the libFuzzer targets of Tests/Fuzz/ and runs each for SECONDS (default 600), one after
# another, then prints each one's executions and coverage.
#
#   Sources/sagabench/Scripts/fuzz.sh [all|FuzzJSON|FuzzParser|FuzzChecker|FuzzInterpreter] [SECONDS]
#
# FUZZ_NO_BUILD=1 skips the build; extra libFuzzer flags go in FUZZ_FLAGS. Everything the
# runs make (the growing corpus, crashes, logs) goes to fuzz-out/ (ignored by git). The seed
# corpus is made afresh from Sagas/ (programs and their input lines) and the committed
# crashers in Tests/*/FuzzRegressions/.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository root

which=${1:-all}
seconds=${2:-600}
targets=(FuzzJSON FuzzParser FuzzChecker FuzzInterpreter)
if [[ $which != all ]]; then
  [[ " ${targets[*]} " == *" $which "* ]] || { echo "unknown target '$which' (${targets[*]}, all)" >&2; exit 64; }
  targets=("$which")
fi

scratch=.build-fuzz
out=fuzz-out
if [[ -z ${FUZZ_NO_BUILD:-} ]]; then
  # The comma form: two separate -sanitize flags silently drop the coverage instrumentation.
  for t in "${targets[@]}"; do
    echo "== building $t"
    swift build -c release --package-path Tests/Fuzz --scratch-path "$scratch" \
      --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --product "$t" 2>&1 | tail -n 2
  done
fi
bin=$(swift build -c release --package-path Tests/Fuzz --scratch-path "$scratch" --show-bin-path)

# The seeds: for the JSON reader, each input line; for the parser and checker, each program;
# for the interpreter, each program, then `%%`, then its input lines.
seed() {
  local t=$1 dir=$out/seeds/$1
  rm -rf "$dir"
  mkdir -p "$dir"
  local n=0
  case $t in
    FuzzJSON)
      while IFS= read -r line; do
        n=$((n + 1))
        printf '%s' "$line" > "$dir/line$n.json"
      done < <(cat Sagas/*/*.input.jsonl)
      printf '%s' '{"a":[1,2.5,-0,1e400,"\u00e9\ud83d\ude00",null,true,{}]}' > "$dir/mixed.json"
      ;;
    FuzzParser | FuzzChecker)
      for f in Sagas/*/*.saga; do
        cp "$f" "$dir/$(basename "$(dirname "$f")")_$(basename "$f")"
      done
      ;;
    FuzzInterpreter)
      for f in Sagas/*/*.saga; do
        local input=${f%.saga}.input.jsonl target=$dir/$(basename "$(dirname "$f")")_$(basename "$f")
        { cat "$f"; printf '\n%%%%\n'; [[ -f $input ]] && cat "$input"; } > "$target"
      done
      ;;
  esac
  # Every crasher found so far is a seed too: a regression shows at once.
  for f in Tests/*/FuzzRegressions/$t/*; do
    [[ -f $f ]] && cp "$f" "$dir/regression_$(basename "$f")"
  done
  return 0
}

status=0
summary=()
for t in "${targets[@]}"; do
  seed "$t"
  mkdir -p "$out/corpus/$t" "$out/crashes/$t"
  dict=Tests/Fuzz/dictionaries/saga.dict
  [[ $t == FuzzJSON ]] && dict=Tests/Fuzz/dictionaries/json.dict
  log=$out/$t.log
  echo "== fuzzing $t for ${seconds}s (log: $log)"
  # -timeout reports a hang, -rss_limit_mb a blow-up. Leaks are not checked, per input or at
  # exit (ASAN_OPTIONS): LeakSanitizer's report at exit would fail a clean run as a crash of
  # the empty input.
  if SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} "$bin/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 \
    -max_len=16384 -detect_leaks=0 -print_final_stats=1 -dict="$dict" \
    -artifact_prefix="$out/crashes/$t/" ${FUZZ_FLAGS:-} "$out/corpus/$t" "$out/seeds/$t" > "$log" 2>&1; then
    result=ok
  else
    result="FAILED (see $log and $out/crashes/$t/)"
    status=1
  fi
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  runs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1 || echo '?')
  cov=$(grep -oE 'cov: [0-9]+' <<< "$last" | grep -oE '[0-9]+' || echo '?')
  ft=$(grep -oE 'ft: [0-9]+' <<< "$last" | grep -oE '[0-9]+' || echo '?')
  speed=$(grep -oE 'exec/s: [0-9]+' <<< "$last" | grep -oE '[0-9]+' || echo '?')
  summary+=("$(printf '%-16s %6ss  %12s execs  cov %6s  ft %7s  %7s exec/s  %s' "$t" "$seconds" "$runs" "$cov" "$ft" "$speed" "$result")")
  echo "   $last"
done

echo "== results ($(date -u +%F), commit $(git rev-parse --short HEAD))"
printf '%s\n' "${summary[@]}" | tee -a "$out/results.txt"
exit $status
