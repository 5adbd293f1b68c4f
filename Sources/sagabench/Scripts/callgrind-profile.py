#!/usr/bin/env python3
"""Where a sagabench workload's instructions go, per item, thread by thread.

Runs the workload under callgrind for N items and for 2N (each thread counted apart), and
prints what one more item costs: in all, then function by function (over all threads, or on
--thread T), and, with --callers, who calls a function and how often per item.
Start-up and set-up cancel out in the difference, as in callgrind-per-item.sh, which builds
the binary this reads (SCRATCH, default .build-bench).

    Sources/sagabench/Scripts/callgrind-profile.py take-put-loop 20000
    Sources/sagabench/Scripts/callgrind-profile.py --inclusive --top 60 every-select-put 20000
    Sources/sagabench/Scripts/callgrind-profile.py --callers swift_retain take-put-loop 20000

A workload fed by input lines has two busy threads: the benchmark's, which writes the lines
before the run, and the scheduler's, which runs it; each run's per-thread totals tell them
apart.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile


def record(binary, workload, count, prefix, extra=()):
    """Runs callgrind; returns {thread number: its output file}."""
    out = f"{prefix}.{count}"
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out}",
         binary, workload, "--count", str(count), *extra],
        capture_output=True, check=True)
    files = {}
    for path in glob.glob(out + "-*"):
        files[int(path.rsplit("-", 1)[1])] = path
    return files


def total(path):
    with open(path) as f:
        for line in f:
            if line.startswith("summary:"):
                return int(line.split()[1])
    return 0


def functions(path, inclusive):
    """{function: instructions} as callgrind_annotate counts them."""
    command = ["callgrind_annotate", "--threshold=100", "--auto=no"]
    if inclusive:
        command.append("--inclusive=yes")
    output = subprocess.run(command + [path], capture_output=True, text=True).stdout
    table = {}
    for line in output.splitlines():
        match = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+(\S.*)$", line)
        if match and "PROGRAM TOTALS" not in line:
            name = re.sub(r" \[.*\]$", "", match.group(2))
            table[name] = table.get(name, 0) + int(match.group(1).replace(",", ""))
    return table


def callers(path, target):
    """{caller: calls} of the functions whose name contains `target`."""
    names, calls = {}, {}
    current = callee = None
    with open(path) as f:
        for line in f:
            if line.startswith(("fn=", "cfn=")):
                match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.strip())
                if match.group(2):
                    names[match.group(1)] = match.group(2)
                if line.startswith("fn="):
                    current = match.group(1)
                else:
                    callee = match.group(1)
            elif line.startswith("calls="):
                count = int(line.split("=")[1].split()[0])
                if target in names.get(callee, ""):
                    caller = names.get(current, current)
                    calls[caller] = calls.get(caller, 0) + count
    return calls


def per_item(small, large, count):
    keys = set(small) | set(large)
    return {k: (large.get(k, 0) - small.get(k, 0)) / count for k in keys}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workload")
    parser.add_argument("count", type=int)
    parser.add_argument("--inclusive", action="store_true", help="count what each function calls too")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--thread", type=int, help="profile this thread only (default: all)")
    parser.add_argument("--callers", metavar="NAME", help="who calls functions whose name contains NAME")
    parser.add_argument("--like-sagarun", action="store_true",
                        help="run programs as `sagarun run` does (sagabench --like-sagarun)")
    parser.add_argument("--binary", default=os.path.join(os.environ.get("SCRATCH", ".build-bench"), "release/sagabench"))
    options = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))  # the repository root

    with tempfile.TemporaryDirectory() as directory:
        prefix = os.path.join(directory, "cg")
        extra = ["--like-sagarun"] if options.like_sagarun else []
        small = record(options.binary, options.workload, options.count, prefix, extra)
        large = record(options.binary, options.workload, 2 * options.count, prefix, extra)
        def summed(files, table_of):
            """`table_of` each file's thread (or --thread's only), added up by name."""
            table = {}
            for t, path in files.items():
                if options.thread is None or t == options.thread:
                    for name, value in table_of(path).items():
                        table[name] = table.get(name, 0) + value
            return table

        def costs(path):
            return functions(path, options.inclusive)

        # Threads are numbered in the order they start, and the scheduler's work can move from
        # one thread of the pool to another: the profile sums them all, unless --thread T
        # names one. (The lines the benchmark writes before the run are on a thread of their
        # own, with functions of their own.)
        for label, files in (("N", small), ("2N", large)):
            print(f"run of {label}: " + ", ".join(f"thread {t} {total(files[t]):,}" for t in sorted(files)))
        all_threads = (sum(map(total, large.values())) - sum(map(total, small.values()))) / options.count
        print(f"all threads: {all_threads:,.0f} instructions per item")
        if options.thread is not None and (options.thread not in small or options.thread not in large):
            print(f"no thread {options.thread} in both runs", file=sys.stderr)
            return 1
        which = "all threads" if options.thread is None else f"thread {options.thread}"
        print(f"\n{which}, per item ({'inclusive' if options.inclusive else 'exclusive'}):")
        table = per_item(summed(small, costs), summed(large, costs), options.count)
        for name, cost in sorted(table.items(), key=lambda kv: -abs(kv[1]))[: options.top]:
            print(f"{cost:9.1f}  {name[:160]}")
        if options.callers:
            print(f"\ncalls per item of *{options.callers}*, by caller:")
            def calls_of(path):
                return callers(path, options.callers)

            calls = per_item(summed(small, calls_of), summed(large, calls_of), options.count)
            for name, n in sorted(calls.items(), key=lambda kv: -kv[1]):
                if abs(n) >= 0.01:
                    print(f"{n:7.2f}  {name[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
