#!/usr/bin/env python3
"""Wall time of two sagabench builds side by side, in one run.

On this project's shared 2-core VM, wall time swings by half from one run to the next, so a
figure is only worth its ratio to a reference measured in the same minutes (issue 6's rules).
This runs each workload ROUNDS times per build, alternating which build goes first, and prints
the median and best rate of each build and the ratio of the medians.

    Sources/sagabench/Scripts/ab-compare.py BASE NEW ROUNDS WORKLOAD[:COUNT] ...
    Sources/sagabench/Scripts/ab-compare.py --cpu BASE NEW 15 take-put-loop:500000 every-select-put:300000

BASE and NEW are sagabench binaries. A base build of an earlier commit, kept out of the way:

    git worktree add /tmp/base <commit>
    (cd /tmp/base && swift build -c release --scratch-path "$PWD/.build-base" --product sagabench)
    ...
    git worktree remove /tmp/base

`--cpu` compares per CPU second (`perCPUSecond`: user and system time of the process over
the measured region), which leaves out the time the process waited while other work ran.
"""
import json
import statistics
import subprocess
import sys


def run(binary, workload, count):
    """One measurement: the workload's JSON row."""
    command = [binary, workload, "--json"] + (["--count", count] if count else [])
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = json.loads(output)
    return rows[0]


def rate(row, per_cpu):
    if per_cpu and row.get("perCPUSecond"):
        return row["perCPUSecond"]
    return row["perSecond"]


def main(arguments):
    per_cpu = "--cpu" in arguments
    arguments = [a for a in arguments if a != "--cpu"]
    if len(arguments) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    base, new, rounds, specs = arguments[0], arguments[1], int(arguments[2]), arguments[3:]
    builds = {"base": base, "new": new}
    rates = {(spec, build): [] for spec in specs for build in builds}
    for i in range(rounds):
        order = ["new", "base"] if i % 2 == 0 else ["base", "new"]
        for spec in specs:
            workload, _, count = spec.partition(":")
            for build in order:
                rates[(spec, build)].append(rate(run(builds[build], workload, count), per_cpu))
    unit = "per CPU second" if per_cpu else "per second"
    print(f"{rounds} rounds, alternating; medians {unit} (best in brackets)")
    for spec in specs:
        new_rates, base_rates = rates[(spec, "new")], rates[(spec, "base")]
        new_median, base_median = statistics.median(new_rates), statistics.median(base_rates)
        print(
            f"{spec}: new {new_median:,.0f} ({max(new_rates):,.0f}) | "
            f"base {base_median:,.0f} ({max(base_rates):,.0f}) | ×{new_median / base_median:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
