#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/performance.md's table of every CPU this project was measured on, from bench/results/*.json
(one `dirfill bench --json` per CPU, each with its CPU name, date and version): middlegame,
throughput, the vector backends' speed over scalar for a few operations.

    python3 bench/tools/cpus.py bench/results/*.json
"""
import json
import sys

OPS = ["slider_rays_batch", "slider_rays_both", "attack_map", "king_safety", "perft"]


def main(paths):
    print("| CPU | version, date | " + " | ".join(
        f"`{op}` AVX2 / scalar, AVX-512 / scalar" for op in OPS) + " |")
    print("|---|---|" + "---|" * len(OPS))
    for path in paths:
        run = json.load(open(path))
        ns = {(x["op"], x["method"]): x["ns_per_pos"] for x in run["results"]
              if x["corpus"] == "middlegame" and x["mode"] == "throughput"}
        cells = []
        for op in OPS:
            scalar = ns.get((op, "scalar"))
            ratios = ["%.2f×" % (scalar / ns[(op, b)]) if scalar and (op, b) in ns else "—"
                      for b in ("avx2", "avx512")]
            cells.append(", ".join(ratios))
        print(f"| {run['cpu']} | {run['version']}, {run['date']} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]) if len(sys.argv) > 1 else (print(__doc__), 2)[1])
