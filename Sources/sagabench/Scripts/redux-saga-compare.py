#!/usr/bin/env python3
"""Issue 6's interpreter rows against redux-saga itself, measured in the same minutes.

The issue's reference figures were measured on another machine, and this VM runs the same
build up to twice as fast in one hour as in another: a ratio is only sound when both sides
run side by side. This runs each workload ROUNDS times on each side, alternating which goes
first, and prints the median rate of each and their ratio.

    Sources/sagabench/Scripts/redux-saga-compare.py --node-modules DIR
        [--sagarun BIN] [--sagabench BIN] [--rounds 7] [WORKLOAD[:COUNT] ...]

DIR is a node_modules folder holding redux-saga and redux, as
`npm install redux-saga@1.4.3 redux@4` makes it. (Where npm cannot be reached,
reference/redux-saga-from-source.md, beside this script, tells how redux-saga 1.2.x was
assembled from source; Sources/sagabench/README.md says which figures come from it.) The
redux-saga side is reference/redux-saga-bench.mjs, run with NODE_ENV=production, timed in its
own process around its dispatch loop only, after its store and saga are set up. Our side:

- every-select-put: end to end, as the issue's row asks: a new
  `sagarun run --virtual-time --memory --input` process over COUNT input lines, its start,
  compile and the persistence middleware in the time (as e2e-compare.py times it);
- take-put-loop, latest-select-put, leading-select-put, call: `sagabench WORKLOAD --count`,
  in process. Its time also covers reading the COUNT input lines and starting the program,
  which the redux-saga side leaves out: the ratio errs against us.

A workload that fails on either side is reported, and the others still run (redux-saga
before 1.4.3 stops silently after about 700 synchronous `call`s).

Workloads default to every-select-put:1000000 and take-put-loop:1000000. BIN default to
the release builds in .build-rel (`swift build -c release --scratch-path .build-rel`).
"""
import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "reference", "redux-saga-bench.mjs")


def e2e_compare():
    """e2e-compare.py, beside this script, as a module: its every-select-put program is the one timed here."""
    spec = importlib.util.spec_from_file_location("e2e_compare", os.path.join(HERE, "e2e-compare.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EVERY_SELECT_PUT = e2e_compare().PROGRAM

# What the issue asks of each row, as a multiple of redux-saga's rate: ≥ 5× end to end for
# every-select-put, 5,000,000 actions/s against redux-saga's 939,000 for take-put-loop, and
# 15,000,000 calls/s against 3,000,000.
TARGETS = {"every-select-put": 5.0, "take-put-loop": 5_000_000 / 939_000, "call": 5.0}


class Failed(Exception):
    """A run that failed, or whose check failed: its workload is reported and skipped."""


def redux_saga_rate(folder, workload, count):
    """One run of the redux-saga side: its rate, or an exit if it failed its check."""
    done = subprocess.run(
        ["node", os.path.join(folder, "redux-saga-bench.mjs"), workload, str(count)],
        capture_output=True, text=True, cwd=folder, env={**os.environ, "NODE_ENV": "production"})
    lines = done.stdout.strip().splitlines()
    result = json.loads(lines[-1]) if lines else {}
    if done.returncode != 0 or not result.get("ok"):
        raise Failed(f"redux-saga {workload} {count} failed: {result.get('error') or done.stderr[:500]}")
    return result["rate"]


def our_rate(args, folder, workload, count):
    """One run of our side: its rate."""
    if workload == "every-select-put":
        saga, lines = os.path.join(folder, "every-select-put.saga"), os.path.join(folder, f"lines-{count}.jsonl")
        if not os.path.exists(lines):
            with open(saga, "w") as f:
                f.write(EVERY_SELECT_PUT)
            with open(lines, "w") as f:
                f.write('{"type":"request"}\n' * count)
        start = time.perf_counter()
        done = subprocess.run([args.sagarun, "run", "--virtual-time", "--memory", "--input", lines, saga],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise Failed(f"sagarun failed: {done.stderr.decode(errors='replace')[:500]}")
        return count / seconds
    done = subprocess.run([args.sagabench, workload, "--count", str(count), "--json"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise Failed(f"sagabench {workload} failed: {done.stderr[:500]}")
    return json.loads(done.stdout)[0]["perSecond"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--node-modules", required=True, help="a node_modules folder with redux-saga and redux")
    parser.add_argument("--sagarun", default=".build-rel/release/sagarun")
    parser.add_argument("--sagabench", default=".build-rel/release/sagabench")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("workloads", nargs="*", default=["every-select-put:1000000", "take-put-loop:1000000"])
    args = parser.parse_args()
    if shutil.which("node") is None:
        sys.exit("node is not on PATH")
    specs = []
    for spec in args.workloads:
        name, _, count = spec.partition(":")
        specs.append((name, int(count) if count else 1_000_000))
    with tempfile.TemporaryDirectory(prefix="redux-saga-compare-") as folder:
        os.symlink(os.path.abspath(args.node_modules), os.path.join(folder, "node_modules"))
        shutil.copy(DRIVER, folder)
        print(f"{args.rounds} rounds, alternating; median (best) rate a second")
        failed = False
        for name, count in specs:
            sides = {"redux-saga": [], "ours": []}
            try:
                for round_ in range(args.rounds):
                    order = ["redux-saga", "ours"] if round_ % 2 == 0 else ["ours", "redux-saga"]
                    for side in order:
                        if side == "ours":
                            sides[side].append(our_rate(args, folder, name, count))
                        else:
                            sides[side].append(redux_saga_rate(folder, name, count))
            except Failed as failure:
                print(f"{name} {count:,}: {failure}")
                failed = True
                continue
            theirs, ours = statistics.median(sides["redux-saga"]), statistics.median(sides["ours"])
            target = TARGETS.get(name)
            verdict = f" (target ×{target:.2f}: {'met' if ours / theirs >= target else 'not met'})" if target else ""
            print(f"{name} {count:,}: redux-saga {theirs:,.0f} ({max(sides['redux-saga']):,.0f}) | "
                  f"ours {ours:,.0f} ({max(sides['ours']):,.0f}) | ×{ours / theirs:.2f}{verdict}")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
