#!/usr/bin/env python3
"""100 sagas calling http.get at once, against Node's fetch at the same concurrency, on the
same local server, in alternating rounds (this machine's speed changes from hour to hour, so
only ratios taken side by side hold).

    Sources/sagabench/Scripts/http-compare.py [--sagabench BIN] [--rounds 5] [--requests 10000]

The server is reference/http-server.mjs (Node's http module, keep-alive); Node's side is
reference/http-fetch.mjs; ours is `sagabench http-get`, which runs `sagarun run --allow-net`
in process. BIN defaults to the release build in .build-rel
(`swift build -c release --scratch-path .build-rel --product sagabench`).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sagabench", default=".build-rel/release/sagabench")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=10000)
    args = parser.parse_args()
    server = subprocess.Popen(
        ["node", os.path.join(HERE, "reference", "http-server.mjs")], stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline().strip())
        url = f"http://127.0.0.1:{port}/"
        ours, node = [], []
        for round in range(args.rounds):
            sides = ["ours", "node"] if round % 2 == 0 else ["node", "ours"]
            for side in sides:
                if side == "node":
                    out = subprocess.run(
                        ["node", os.path.join(HERE, "reference", "http-fetch.mjs"), url, str(args.requests), "100"],
                        check=True, capture_output=True, text=True).stdout
                    node.append(float(re.search(r"([0-9]+)/s", out).group(1)))
                else:
                    out = subprocess.run(
                        [args.sagabench, "http-get", "--count", str(args.requests), "--json"],
                        check=True, capture_output=True, text=True, env={**os.environ, "SAGABENCH_HTTP_URL": url}).stdout
                    ours.append(float(re.search(r'"perSecond"\s*:\s*([0-9.]+)', out).group(1)))
            print(f"round {round + 1}: sagas {ours[-1]:,.0f}/s, node fetch {node[-1]:,.0f}/s", flush=True)
        ratios = [o / n for o, n in zip(ours, node)]
        print(f"median: sagas {statistics.median(ours):,.0f} requests/s, node fetch {statistics.median(node):,.0f} "
              f"requests/s; ratio {min(ratios):.2f}-{max(ratios):.2f}, median {statistics.median(ratios):.2f}")
    finally:
        server.terminate()


if __name__ == "__main__":
    sys.exit(main())
