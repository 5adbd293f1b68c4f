#!/usr/bin/env python3
"""Issue 6's end-to-end rows: `sagarun run --virtual-time --memory --input` in a new process,
or, with --check, `sagarun check` of a generated 10 MB file.

Writes every-select-put's program and N input lines (`{"type":"request"}`, default 1,000,000)
to a temporary directory, then runs one or two `sagarun` builds over them, ROUNDS times each,
alternating which goes first, and prints each build's median and best wall time, its rate in
actions a second, and the ratio of the medians. The process's start, the compile and the
persistence middleware are all in the time, as a user running the command would see them.

    Sources/sagabench/Scripts/e2e-compare.py NEW [--base BASE] [--rounds 9] [--lines 1000000] [--payload]
    Sources/sagabench/Scripts/e2e-compare.py NEW [--base BASE] [--rounds 9] --check [--bytes 10000000]

NEW and BASE are `sagarun` binaries (a base build of an earlier commit: see ab-compare.py).
`--payload` sends `{"type":"request","n":1}`, which the JSON reader reads, instead.
`--check` times parse-and-check through the command a user runs (reading the file, the
process's start and exit included) over the text `sagabench parse-check` generates.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

PROGRAM = """state { count: 0 }
reduce "add" as a { state.count = state.count + a.by }
saga main {
  every "request" as r {
    let c = select state.count
    put "add" { by: 1 }
  }
}
"""


def generated_source(size):
    """The text `sagabench parse-check` compiles (Sources/sagabench/Workloads.swift), at
    least `size` bytes: the two must stay the same for the figures to compare."""
    parts, total, i = ["state { count: 0 }\n"], 19, 0
    while total < size:
        unit = (f'func f{i}(a, b) {{\n'
                f'  let x = a + b * 2\n'
                f'  if x > 10 {{ return x }} else {{ return [x, "s\\(x)", {{k: x}}] }}\n'
                f'}}\n'
                f'saga s{i} {{\n'
                f'  every "t{i}/*" as act {{\n'
                f'    let r = call f{i}(act.n, 2)\n'
                f'    put "done" {{ r: r }}\n'
                f'  }}\n'
                f'}}\n')
        parts.append(unit)
        total += len(unit)
        i += 1
    return "".join(parts)


def run_once(binary, arguments):
    start = time.perf_counter()
    done = subprocess.run([binary] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{binary} failed ({done.returncode}): {done.stderr.decode(errors='replace')[:500]}")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("new")
    parser.add_argument("--base")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--payload", action="store_true")
    parser.add_argument("--check", action="store_true", help="time `sagarun check` of a generated file")
    parser.add_argument("--bytes", type=int, default=10_000_000, help="the generated file's size, with --check")
    args = parser.parse_args()
    builds = [("new", args.new)] + ([("base", args.base)] if args.base else [])
    with tempfile.TemporaryDirectory(prefix="sagas-e2e-") as directory:
        if args.check:
            saga = os.path.join(directory, "big.saga")
            text = generated_source(args.bytes)
            with open(saga, "w") as f:
                f.write(text)
            arguments, count, what, unit = ["check", saga], len(text.encode()), f"a {len(text):,}-byte file", "bytes"
        else:
            saga = os.path.join(directory, "every-select-put.saga")
            lines = os.path.join(directory, "lines.jsonl")
            with open(saga, "w") as f:
                f.write(PROGRAM)
            line = '{"type":"request","n":1}\n' if args.payload else '{"type":"request"}\n'
            with open(lines, "w") as f:
                f.write(line * args.lines)
            arguments = ["run", "--virtual-time", "--memory", "--input", lines, saga]
            count, what, unit = args.lines, f"{args.lines:,} lines", "actions"
        times = {name: [] for name, _ in builds}
        for round_ in range(args.rounds):
            order = builds if round_ % 2 == 0 else list(reversed(builds))
            for name, binary in order:
                times[name].append(run_once(binary, arguments))
    print(f"{args.rounds} rounds of {what}, alternating; median (best) wall time")
    medians = {}
    for name, _ in builds:
        median, best = statistics.median(times[name]), min(times[name])
        medians[name] = median
        if unit == "bytes":
            print(f"{name}: {median:.3f} s ({best:.3f} s): {count / median / 1e6:.1f} MB/s "
                  f"({count / best / 1e6:.1f} at best)")
        else:
            print(f"{name}: {median:.3f} s ({best:.3f} s): {count / median:,.0f} {unit}/s "
                  f"({count / best:,.0f} at best)")
    if args.base:
        print(f"ratio of the medians: ×{medians['base'] / medians['new']:.2f}")


if __name__ == "__main__":
    main()
