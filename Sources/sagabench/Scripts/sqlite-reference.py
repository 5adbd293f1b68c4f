#!/usr/bin/env python3
"""SQLite reference figures for sagabench's persistence workloads, on the same machine.

Python's sqlite3 with journal_mode=WAL and synchronous=FULL (every commit is synced), rows
shaped like the benchmark's elements: an integer id and the element as JSON text.

    python3 Sources/sagabench/Scripts/sqlite-reference.py                 # median of 3 runs of each
    python3 Sources/sagabench/Scripts/sqlite-reference.py --runs 1 --loop 2000 --reopen 200000

Workloads (the sagabench names in brackets):
  loop     one row per transaction, N times               [save-loop]
  batched  1,000 rows per transaction                     [save-many: one sync per batch,
           as group commit gives 1,000 concurrent sagas]
  threads  8 threads, each one row per transaction        [save-many, done the naive way]
  reopen   fill N rows, close, then time connect + one SELECT by id   [reopen]
"""

import argparse
import json
import sys
import os
import shutil
import sqlite3
import statistics
import tempfile
import threading
import time


def connect(path):
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=60)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db


def element(i):
    return json.dumps({"id": i, "name": "item %d" % i, "n": i % 1000}, separators=(",", ":"))


def fresh(folder):
    path = os.path.join(folder, "bench-%d.sqlite" % time.monotonic_ns())
    db = connect(path)
    db.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, element TEXT NOT NULL)")
    return path, db


def loop(folder, n):
    _, db = fresh(folder)
    start = time.perf_counter()
    for i in range(n):
        db.execute("BEGIN")
        db.execute("INSERT OR REPLACE INTO items VALUES (?, ?)", (i, element(i)))
        db.execute("COMMIT")
    seconds = time.perf_counter() - start
    db.close()
    return n, seconds


def batched(folder, n, batch=1000):
    _, db = fresh(folder)
    start = time.perf_counter()
    for first in range(0, n, batch):
        db.execute("BEGIN")
        db.executemany(
            "INSERT OR REPLACE INTO items VALUES (?, ?)", ((i, element(i)) for i in range(first, min(n, first + batch))))
        db.execute("COMMIT")
    seconds = time.perf_counter() - start
    db.close()
    return n, seconds


def threads(folder, n, workers=8):
    path, db = fresh(folder)
    db.close()
    per = n // workers
    errors = []

    def work(w):
        try:
            c = connect(path)
            for i in range(w * per, (w + 1) * per):
                c.execute("BEGIN IMMEDIATE")
                c.execute("INSERT OR REPLACE INTO items VALUES (?, ?)", (i, element(i)))
                c.execute("COMMIT")
            c.close()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
    start = time.perf_counter()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    seconds = time.perf_counter() - start
    if errors:
        raise errors[0]
    return per * workers, seconds


def reopen(folder, n):
    path, db = fresh(folder)
    batched_fill = 10000
    for first in range(0, n, batched_fill):
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO items VALUES (?, ?)", ((i, element(i)) for i in range(first, min(n, first + batched_fill))))
        db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    wanted = n // 2
    start = time.perf_counter()
    db = connect(path)
    row = db.execute("SELECT element FROM items WHERE id = ?", (wanted,)).fetchone()
    seconds = time.perf_counter() - start
    db.close()
    if row is None or json.loads(row[0])["id"] != wanted:
        raise RuntimeError("query by id %d failed" % wanted)
    return n, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs of each workload; the median is shown")
    parser.add_argument("--loop", type=int, default=5000, help="rows of 'loop' and 'threads'")
    parser.add_argument("--batched", type=int, default=100000, help="rows of 'batched'")
    parser.add_argument("--reopen", type=int, default=1000000, help="rows of 'reopen'")
    parser.add_argument("--only", default=None, help="comma-separated workloads to run (loop,batched,threads,reopen)")
    parser.add_argument("--dir", default=None, help="folder for the database files (default: a temporary one)")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="sqlite-ref-", dir=args.dir)
    print("sqlite %s, python %s, WAL, synchronous=FULL, folder %s" % (
        sqlite3.sqlite_version, ".".join(map(str, sys.version_info[:3])), folder))
    rows = []
    try:
        plan = [
            ("loop", "rows/s", lambda: loop(folder, args.loop)),
            ("batched x1000", "rows/s", lambda: batched(folder, args.batched)),
            ("threads x8", "rows/s", lambda: threads(folder, args.loop)),
            ("reopen + by id", "seconds", lambda: reopen(folder, args.reopen)),
        ]
        wanted = set(args.only.split(",")) if args.only else None
        for name, unit, run in plan:
            if wanted is not None and name.split(" ")[0] not in wanted:
                continue
            results = []
            for _ in range(args.runs):
                results.append(run())
                for f in os.listdir(folder):
                    os.remove(os.path.join(folder, f))
            count = results[0][0]
            seconds = statistics.median(r[1] for r in results)
            figure = seconds if unit == "seconds" else count / seconds
            rows.append((name, count, seconds, figure, unit))
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print("%-16s %10s %10s  %s" % ("workload", "count", "seconds", "result (median of %d)" % args.runs))
    for name, count, seconds, figure, unit in rows:
        shown = "%.4f s" % figure if unit == "seconds" else "%.0f %s" % (figure, unit)
        print("%-16s %10d %10.3f  %s" % (name, count, seconds, shown))


if __name__ == "__main__":
    main()
