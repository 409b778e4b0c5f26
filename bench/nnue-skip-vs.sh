#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dirfill nnue --skip against nnue-pytorch's own skip predicate on the same .binpack: for
# nnue-pytorch's presets and each option alone, the entries each keeps, and whether the kept
# entries have the same counts by piece count and by ply (in tens).
#
#   usage: bench/nnue-skip-vs.sh [--seed S] --dump PATH FILE.binpack
#
# PATH is a driver built outside the repository (docs/nnue.md says how) around nnue-pytorch's
# loader: `PATH skip FILE --preset python|none KEY=VALUE... --seed S` runs their
# make_skip_predicate over FILE in file order on one thread and prints `kept N of M` and the
# kept entries by piece count and ply bucket. Both run with seed S (default 5489, the C++
# default: the same draws, so the counts should be equal, not only close). Then dirfill alone:
# the defaults with seeds 1 and 2 (the random parts keep the same fractions under another
# seed) and seed 1 twice (the same entries again, by a checksum of the kept entries).
set -euo pipefail
cd "$(dirname "$0")/.."
seed=5489 dump=""
while [ $# -gt 0 ]; do
  case $1 in
    --seed) seed=$2; shift 2 ;;
    --dump) dump=$2; shift 2 ;;
    -h|--help) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "nnue-skip-vs: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] && [ -f "$1" ] && [ -x "$dump" ] ||
  { echo "nnue-skip-vs: name the driver (--dump PATH) and one .binpack file (see --help)" >&2; exit 2; }
file=$1
dirfill=${DIRFILL:-build/release/dirfill}
[ -x "$dirfill" ] || make build >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The kept entries' histograms from dirfill's JSON lines, in the driver's format.
hist() {
  awk -F'"' '{
      board = $4; sub(/ .*/, "", board); pc = gsub(/[pnbrqkPNBRQK]/, "", board);
      match($0, /"ply":[0-9]+/); ply = substr($0, RSTART + 6, RLENGTH - 6);
      by_pc[pc]++; b = int(ply / 10); by_ply[b]++; if (b > top) top = b
    } END {
      line = "kept_by_piece_count:"; for (i = 0; i <= 64; i++) if (i in by_pc) line = line " " i ":" by_pc[i]; print line
      line = "kept_by_ply_bucket10:"; for (i = 0; i <= top; i++) if (i in by_ply) line = line " " 10 * i "-" 10 * i + 9 ":" by_ply[i]; print line
    }'
}

echo "$file: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); seed $seed"
printf '%-62s %9s %9s %7s %6s %6s\n' "options (base: nnue-pytorch's python defaults or none)" theirs dirfill "diff %" pieces plies
while read -r base opts; do
  spec=$base
  for kv in $opts; do spec="$spec,$kv"; done
  preset=$base; [ "$base" = default ] && preset=python
  "$dump" skip "$file" --preset "$preset" $opts --seed "$seed" >"$tmp/theirs"
  "$dirfill" nnue --features none --json --skip "$spec" --seed "$seed" "$file" >"$tmp/json"
  hist <"$tmp/json" >"$tmp/ours"
  t=$(sed -n 's/^kept \([0-9]*\) of.*/\1/p' "$tmp/theirs")
  o=$(wc -l <"$tmp/json")
  same() { [ "$(grep "^$1" "$tmp/theirs")" = "$(grep "^$1" "$tmp/ours")" ] && echo same || echo differ; }
  printf '%-62s %9d %9d %7.2f %6s %6s\n' "$spec" "$t" "$o" "$(awk -v a="$o" -v b="$t" 'BEGIN {print b ? 100 * (a - b) / b : 0}')" \
    "$(same kept_by_piece_count)" "$(same kept_by_ply_bucket10)"
done <<'CONFIGS'
default
default random_fen_skipping=0 wld_filtered=0
default random_fen_skipping=10 early_fen_skipping=16 soft_early_fen_skipping=32 simple_eval_skipping=0 pc_y4=0.8 ply_y1=0.025 ply_x2=22 ply_y2=0.05 ply_x3=25.5 ply_y3=0.2 ply_x4=28 ply_y4=0.75
default random_fen_skipping=0 wld_filtered=0 early_fen_skipping=16 soft_early_fen_skipping=32 simple_eval_skipping=0 pc_y4=0.8 ply_y1=0.025 ply_x2=22 ply_y2=0.05 ply_x3=25.5 ply_y3=0.2 ply_x4=28 ply_y4=0.75
none
none early_fen_skipping=0
none filtered=1
none wld_filtered=1
none random_fen_skipping=3
none random_fen_skipping=10
none early_fen_skipping=16
none soft_early_fen_skipping=20
none early_fen_skipping=0 simple_eval_skipping=100
none early_fen_skipping=0 pc_y0=1 pc_y1=1 pc_y2=1 pc_y3=1 pc_y4=1
default filtered=0
default wld_filtered=0
default soft_early_fen_skipping=0
CONFIGS

kept() { "$dirfill" nnue --features none --json --skip default --seed "$1" "$file" | tee "$tmp/kept$2" | wc -l; }
a=$(kept 1 a) b=$(kept 2 b) c=$(kept 1 c)
echo "dirfill, defaults: seed 1 keeps $a, seed 2 keeps $b ($(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", 100 * (b - a) / a}') %);" \
  "seed 1 again: $(cmp -s "$tmp/kepta" "$tmp/keptc" && echo "the same entries" || echo "OTHER ENTRIES")"
