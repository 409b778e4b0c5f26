#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dirfill nnue against nnue-pytorch's own loader on the same .binpack, one thread each, side by
# side on this machine.
#
#   usage: bench/nnue-vs.sh [--runs N] [--repeat R] [--copies K] --dump PATH FILE.binpack
#
# PATH is a driver built outside the repository (docs/nnue.md says how) around nnue-pytorch's
# loader: `PATH bench FILE SET R --batch B` reads FILE R times with their binpack reader and
# builds their SparseBatch of B entries with their extractors for SET, on one thread ("none":
# reading alone). dirfill's run is `dirfill nnue --threads 1 --features SET FILE` with FILE named
# R times (default 3). For each set (the composed Full_Threats+PP_3Wide+HalfKAv2_hm,
# Full_Threats, HalfKAv2_hm, PP_3Wide, none) the commands alternate RUNS times (default 7):
# dirfill, theirs at batch 16384 (their default), theirs at batch 1024 (where their per-batch
# allocation does not dominate). Each run's CPU time (user + system, GNU time) gives entries per
# second; the table shows the medians, and dirfill's ratio to each of theirs as the median of
# the runs' ratios. Before anything is timed, both must count the same entries. Then dirfill's
# peak resident memory (GNU time) on FILE and on FILE joined K times (default 20) with itself:
# bounded by the batches and threads, not by the input.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=7 repeat=3 copies=20 dump=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --copies) copies=$2; shift 2 ;;
    --dump) dump=$2; shift 2 ;;
    -h|--help) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "nnue-vs: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] && [ -f "$1" ] && [ -x "$dump" ] ||
  { echo "nnue-vs: name the driver (--dump PATH) and one .binpack file (see --help)" >&2; exit 2; }
file=$1
dirfill=${DIRFILL:-build/release/dirfill}
[ -x "$dirfill" ] || make build >/dev/null
gtime=/usr/bin/time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=()
for ((i = 0; i < repeat; i++)); do files+=("$file"); done

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# CPU seconds (user + system) of a command, its output kept in $tmp/out.
cpu() { "$gtime" -f '%U %S' -o "$tmp/time" "$@" >"$tmp/out" 2>&1; awk '{print $1 + $2}' "$tmp/time"; }

ours_entries=$("$dirfill" nnue --threads 1 --features none "${files[@]}" | awk '{print $1}')
theirs_entries=$("$dump" bench "$file" none "$repeat" | sed -n 's/.*entries=\([0-9]*\).*/\1/p')
[ "$ours_entries" = "$theirs_entries" ] ||
  { echo "nnue-vs: dirfill reads $ours_entries entries, theirs $theirs_entries: not comparable" >&2; exit 1; }
echo "$file x $repeat: $ours_entries entries; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
  "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $runs runs, CPU time"
printf '%-34s %12s %12s %12s %10s %10s\n' "set (M entries/s)" dirfill "theirs 16384" "theirs 1024" "x 16384" "x 1024"
for set in Full_Threats+PP_3Wide+HalfKAv2_hm Full_Threats HalfKAv2_hm PP_3Wide none; do
  o="" a="" b="" ra="" rb=""
  for ((r = 0; r < runs; r++)); do
    to=$(cpu "$dirfill" nnue --threads 1 --features "$set" "${files[@]}")
    ta=$(cpu "$dump" bench "$file" "$set" "$repeat" --batch 16384)
    tb=$(cpu "$dump" bench "$file" "$set" "$repeat" --batch 1024)
    o+="$to " a+="$ta " b+="$tb "
    ra+="$(echo "$ta / $to" | bc -l) " rb+="$(echo "$tb / $to" | bc -l) "
  done
  rate() { echo "$1" | tr ' ' '\n' | grep . | median | awk -v n="$ours_entries" '{printf "%.2f", n / $1 / 1e6}'; }
  mid() { echo "$1" | tr ' ' '\n' | grep . | median | awk '{printf "%.2f", $1}'; }
  printf '%-34s %12s %12s %12s %10s %10s\n' "$set" "$(rate "$o")" "$(rate "$a")" "$(rate "$b")" "$(mid "$ra")" "$(mid "$rb")"
done

# Peak memory: the file, then K copies of it joined (chunks follow chunks: a valid .binpack).
for ((i = 0; i < copies; i++)); do cat "$file"; done >"$tmp/joined.binpack"
for input in "$file" "$tmp/joined.binpack"; do
  for threads in 1 2; do
    "$gtime" -v "$dirfill" nnue --threads "$threads" "$input" >"$tmp/out" 2>"$tmp/time"
    printf 'peak memory: %s MB, %s, --threads %s (%s)\n' \
      "$(awk '/Maximum resident/ {printf "%.1f", $NF / 1024}' "$tmp/time")" \
      "$(stat -c %s "$input" | awk '{printf "%.1f MB input", $1 / 1e6}')" "$threads" "$(cat "$tmp/out")"
  done
done
