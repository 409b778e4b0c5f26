#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/performance.md's table of the backends from several whole `dirfill bench --json` runs:
the median of each figure over the runs, throughput mode; ratios of the medians.

    for i in 1 2 3; do build/release/dirfill bench --json > run$i.json; done
    python3 bench/tools/medians.py run1.json run2.json run3.json
"""
import json
import statistics
import sys

CLASSIC = ["pext", "magic", "hq", "sniper"]
OPS = [("slider_rays", "one side, 8 directions"), ("slider_rays_batch", "one batch call"),
       ("slider_rays_both", "both sides"), ("slider_union", "one side, union"),
       ("xrays", "multi-slider x-rays"), ("attack_map", "one side, every field"),
       ("attack_maps_both", "both sides"), ("king_safety", "the five sets"),
       ("attackers_to", "all 64 squares"), ("perft", "depth 2, ns per node"),
       ("make_move", "ns per move"), ("see", "ns per move")]


def main(paths):
    runs = [json.load(open(p)) for p in paths]
    cells = {}
    for run in runs:
        for x in run["results"]:
            cells.setdefault((x["op"], x["corpus"], x["method"], x["mode"]), []).append(x["ns_per_pos"])
    med = {k: statistics.median(v) for k, v in cells.items()}
    suspect = sorted({(x["op"], x["corpus"], x["method"]) for r in runs for x in r["results"]
                      if x["suspect"]})
    print("%s, %d runs, medians; suspect rows: %s\n" % (runs[0]["cpu"], len(runs), suspect or "none"))
    print("| op (middlegame, throughput, ns) | scalar | AVX2 | AVX-512 | AVX2 / scalar | "
          "AVX-512 / scalar | AVX-512 / AVX2 | best classic / fastest backend: middlegame | endgame | games |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for op, what in OPS:
        def ns(corpus, method):
            return med.get((op, corpus, method, "throughput"))
        sc, a2, a5 = ns("middlegame", "scalar"), ns("middlegame", "avx2"), ns("middlegame", "avx512")
        if sc is None:
            continue
        vs = []
        for corpus in ("middlegame", "endgame", "games"):
            classic = [(ns(corpus, m), m) for m in CLASSIC if ns(corpus, m)]
            fastest = min(v for v in (ns(corpus, "avx2"), ns(corpus, "avx512"), ns(corpus, "scalar")) if v)
            vs.append("%.2f× %s" % (min(classic)[0] / fastest, min(classic)[1]) if classic else "—")
        row = [f"`{op}` ({what})", "%.1f" % sc, "%.1f" % a2 if a2 else "—", "%.1f" % a5 if a5 else "—",
               "%.2f×" % (sc / a2) if a2 else "—", "%.2f×" % (sc / a5) if a5 else "—",
               "%.2f×" % (a2 / a5) if a2 and a5 else "—"] + vs
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]) if len(sys.argv) > 1 else (print(__doc__), 2)[1])
