#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dirfill's PGN reader against other readers on the same file, side by side on this machine.
#
#   usage: bench/pgn-vs.sh [--runs N] [--chess-library PATH] [--python-chess DIR]
#                          [--python-mb M] FILE.pgn
#
# Every reader reads every game and checks and plays every move of its main line. Timed, RUNS
# times each (default 5), alternately, medians in MB/s of the uncompressed file:
#   dirfill pgn --threads 1 and --threads 2 on FILE, and --threads 1 on FILE compressed with
#   zstd -3 (made once beside it, FILE.zst, timed by the uncompressed bytes);
#   Python (build/venv): dirfill.pgn_positions(FILE, threads=1) (positions as numpy columns),
#   and the same followed by attack_planes_from_bitboards on one thread (PGN to planes);
#   --chess-library: the driver bench/peers/chess-library-pgn.cpp built as PATH
#   (pgn::StreamParser, uci::parseSan and Board::makeMove on every move);
#   --python-chess: chess.pgn.read_game on the first M MB of FILE (default 4; cut at a game),
#   DIR a checkout of python-chess's source (the directory that holds chess/).
# Then the peak resident memory of `dirfill pgn --threads 1` and `--threads 2` on FILE
# (GNU time). Before timing, every reader's game count is compared with dirfill's.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 cl="" pychess="" pymb=4
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --chess-library) cl=$2; shift 2 ;;
    --python-chess) pychess=$2; shift 2 ;;
    --python-mb) pymb=$2; shift 2 ;;
    -h|--help) sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "pgn-vs: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] && [ -f "$1" ] || { echo "pgn-vs: name one PGN file (see --help)" >&2; exit 2; }
file=$1
dirfill=${DIRFILL:-build/release/dirfill}
python=${PYTHON:-build/venv/bin/python}
[ -x "$dirfill" ] || make build >/dev/null
mb=$(stat -c %s "$file" | awk '{printf "%.3f", $1 / 1e6}')
[ -f "$file.zst" ] || zstd -q -3 -k -o "$file.zst" "$file"

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
# seconds of a dirfill run: its own summary line's seconds
dirfill_seconds() { "$dirfill" pgn --threads "$1" "$2" | awk '{for (i = 1; i < NF; i++) if ($(i+1) == "s,") print $i}'; }
games_of() { "$dirfill" pgn --threads 1 "$1" | sed 's/.*: \([0-9]*\) games.*/\1/'; }

games=$(games_of "$file")
echo "$file: $mb MB, $games games; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $runs runs"
if [ -n "$cl" ]; then
  cl_games=$("$cl" "$file" | awk '{print $2}')
  [ "$cl_games" = "$games" ] || { echo "pgn-vs: chess-library read $cl_games games, dirfill $games" >&2; exit 1; }
fi

pyscript='
import sys, time, numpy as np, dirfill
path, planes = sys.argv[1], sys.argv[2] == "planes"
t = time.perf_counter()
p = dirfill.pgn_positions(path, threads=1)
if planes:
    n, step = len(p["stm"]), 65536
    out = np.empty((min(n, step), 75, 8, 8), np.uint8)
    for i in range(0, n, step):
        j = min(n, i + step)
        dirfill.attack_planes_from_bitboards(p["pieces"][i:j], p["stm"][i:j], threads=1,
            castling=p["castling"][i:j], ep=p["ep"][i:j], out=out[: j - i])
print(time.perf_counter() - t, len(p["stm"]))
'
declare -A t
for ((r = 0; r < runs; r++)); do
  t[d1]+="$(dirfill_seconds 1 "$file") "
  t[d2]+="$(dirfill_seconds 2 "$file") "
  t[zst]+="$(dirfill_seconds 1 "$file.zst") "
  t[py]+="$("$python" -c "$pyscript" "$file" positions | awk '{print $1}') "
  t[pyplanes]+="$("$python" -c "$pyscript" "$file" planes | awk '{print $1}') "
  [ -n "$cl" ] && t[cl]+="$("$cl" "$file" | awk '{print $8}') "
done
positions=$("$python" -c "$pyscript" "$file" positions | awk '{print $2}')
rate() { echo "${t[$1]}" | tr ' ' '\n' | grep . | median | awk -v mb="$mb" '{printf "%.1f", mb / $1}'; }
printf '%-44s %10s\n' "reader (every move checked and played)" "MB/s"
printf '%-44s %10s\n' "dirfill pgn, 1 thread" "$(rate d1)"
printf '%-44s %10s   (%.2fx one thread)\n' "dirfill pgn, 2 threads" "$(rate d2)" "$(echo "$(rate d2) / $(rate d1)" | bc -l)"
printf '%-44s %10s   (%.0f%% of plain)\n' "dirfill pgn, 1 thread, .zst" "$(rate zst)" "$(echo "100 * $(rate zst) / $(rate d1)" | bc -l)"
printf '%-44s %10s   (%.0f%% of the C reader; %.0f positions/s)\n' "Python pgn_positions, 1 thread" "$(rate py)" \
  "$(echo "100 * $(rate py) / $(rate d1)" | bc -l)" "$(echo "$positions * $(rate py) / $mb" | bc -l)"
printf '%-44s %10s   (%.0f positions/s)\n' "Python pgn_positions + planes, 1 thread" "$(rate pyplanes)" \
  "$(echo "$positions * $(rate pyplanes) / $mb" | bc -l)"
[ -n "$cl" ] && printf '%-44s %10s   (dirfill 1 thread: %.2fx)\n' "chess-library StreamParser+parseSan+makeMove" \
  "$(rate cl)" "$(echo "$(rate d1) / $(rate cl)" | bc -l)"

if [ -n "$pychess" ]; then
  # The first M MB, cut where a game starts, read by both.
  part=$(mktemp --suffix=.pgn)
  head -c "$((pymb * 1000000))" "$file" | awk 'BEGIN{n=0} /^\[Event /{last=NR} {lines[NR]=$0} END{for(i=1;i<last;i++) print lines[i]}' > "$part"
  pmb=$(stat -c %s "$part" | awk '{printf "%.3f", $1 / 1e6}')
  pc=$("$python" - "$pychess" "$part" <<'EOF'
import sys, time
sys.path.insert(0, sys.argv[1])
import chess.pgn
t, games = time.perf_counter(), 0
with open(sys.argv[2]) as f:
    while chess.pgn.read_game(f) is not None:
        games += 1
print(time.perf_counter() - t, games)
EOF
)
  ds=()
  for ((r = 0; r < 3; r++)); do ds+=("$(dirfill_seconds 1 "$part")"); done
  d=$(printf '%s\n' "${ds[@]}" | median)
  pcs=$(echo "$pc" | awk '{print $1}')
  printf '%-44s %10.2f   (dirfill 1 thread on the same %s MB: %.0fx)\n' "python-chess read_game ($(echo "$pc" | awk '{print $2}') games)" \
    "$(echo "$pmb / $pcs" | bc -l)" "$pmb" "$(echo "$pcs / $d" | bc -l)"
  rm -f "$part"
fi

for threads in 1 2; do
  rss=$(/usr/bin/time -f %M "$dirfill" pgn --threads "$threads" "$file" 2>&1 >/dev/null | tail -n 1)
  printf 'peak resident memory, dirfill pgn --threads %s: %.1f MB\n' "$threads" "$(echo "$rss / 1024" | bc -l)"
done
