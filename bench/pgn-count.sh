#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dirfill pgn --count-by against --headers on the same file, one thread, side by side: the
# count's speed as a share of the header-only read's (docs/performance.md has the goal).
#
#   usage: bench/pgn-count.sh [--runs N] [--fields LIST] FILE.pgn
#
# N alternated pairs (default 15), the order within a pair swapped every pair, on a file in the
# page cache after a read of each: `dirfill pgn --headers --threads 1 FILE` and `dirfill pgn
# --count-by LIST --threads 1 FILE` (LIST default Speed,EloBin). Each run's CPU time (user +
# system, from the kernel's accounting of the child, not a 10 ms tick) and wall clock; each
# pair's ratio headers / count (above 1: the count is faster); the medians. Before timing, the
# count's games are checked to add up to the header-only read's kept games.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=15 fields=Speed,EloBin
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --fields) fields=$2; shift 2 ;;
    -h|--help) sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "pgn-count: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] && [ -f "$1" ] || { echo "pgn-count: name one PGN file (see --help)" >&2; exit 2; }
dirfill=${DIRFILL:-build/release/dirfill}
[ -x "$dirfill" ] || make build >/dev/null
exec python3 - "$dirfill" "$1" "$fields" "$runs" <<'EOF'
import os, resource, statistics, subprocess, sys, time

dirfill, path, fields, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
modes = {"headers": [dirfill, "pgn", "--headers", "--threads", "1", path],
         "count": [dirfill, "pgn", "--count-by", fields, "--json", "--threads", "1", path]}

def run(mode):
    """CPU seconds (user + system of the child) and wall seconds of one run, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(modes[mode], check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall, out

# The count adds up to the header-only read's kept games (and warms the page cache).
kept = int(run("headers")[2].split()[3])
counted = sum(int(line.rsplit(":", 1)[1].rstrip("}\n")) for line in run("count")[2].splitlines())
if kept != counted:
    sys.exit(f"pgn-count: --count-by counted {counted} games, --headers kept {kept}")
t = {m: {"cpu": [], "wall": []} for m in modes}
ratio = {"cpu": [], "wall": []}
for i in range(runs):
    pair = ["headers", "count"] if i % 2 == 0 else ["count", "headers"]
    got = {}
    for mode in pair:
        cpu, wall, _ = run(mode)
        got[mode] = (cpu, wall)
        t[mode]["cpu"].append(cpu)
        t[mode]["wall"].append(wall)
    for k, clock in enumerate(("cpu", "wall")):
        ratio[clock].append(got["headers"][k] / got["count"][k])
mb = os.path.getsize(path) / 1e6
cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                  if l.startswith("model name")), "?")
print(f"{path}: {mb:.1f} MB, {kept} games; {cpu_model}; {runs} alternated pairs, one thread")
for mode, name in (("headers", "--headers"), ("count", f"--count-by {fields}")):
    c, w = statistics.median(t[mode]["cpu"]), statistics.median(t[mode]["wall"])
    print(f"  {name:<28} CPU {c:.3f} s ({mb / c:.0f} MB/s)   wall {w:.3f} s ({mb / w:.0f} MB/s)")
for clock in ("cpu", "wall"):
    r = sorted(ratio[clock])
    print(f"  speed of the count / --headers, {clock.upper():<4}: median {statistics.median(r):.3f}"
          f" (range {r[0]:.3f}-{r[-1]:.3f})")
EOF
