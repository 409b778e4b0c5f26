#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dirfill's PGN reader against other readers on the same file, side by side on this machine.
#
#   usage: bench/pgn-vs.sh [--runs N] [--chess-library PATH] [--python-chess DIR]
#                          [--python-mb M] [--where EXPR] FILE.pgn
#
# Modes, each timed RUNS times (default 5), the readers alternating, wall clock of the whole
# command on a file in the page cache, medians in MB/s of the uncompressed file:
#   validating (every move of every game read, checked and played): dirfill pgn --threads 1
#     and 2, on FILE and on FILE.zst (zstd -3, made once beside it); Debian's pgn-extract -r
#     (it parses and checks every move, writing nothing); --chess-library: the driver
#     bench/peers/chess-library-pgn.cpp built as PATH (pgn::StreamParser, uci::parseSan,
#     Board::makeMove); Python (build/venv): dirfill.pgn_positions(FILE, threads=1), and the
#     same with attack_planes_from_bitboards; --python-chess: chess.pgn.read_game on the first
#     M MB of FILE (default 4, cut at a game), DIR a checkout of python-chess's source, against
#     dirfill on the same games read ten times over in one run, alternating, the median of the
#     RUNS rounds' ratios;
#   header-only (tags and results, movetext not read): dirfill pgn --headers against the
#     chess-library driver's --parse-only;
#   filtered: dirfill pgn --where EXPR (default 'WhiteElo>=2600', a tenth of the games of
#     `dirfill-pgn-make`'s files) against pgn-extract -t with the same condition, and its
#     ratio to the unfiltered read by wall clock and by dirfill's own clock (the read alone).
# Before anything is timed, every reader's games (and moves, where it reports them) are
# compared with dirfill's on the same input: a reader that disagrees is shown as "not
# comparable", never timed. Then the peak resident memory of `dirfill pgn` on FILE (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 cl="" pychess="" pymb=4 where='WhiteElo>=2600'
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --chess-library) cl=$2; shift 2 ;;
    --python-chess) pychess=$2; shift 2 ;;
    --python-mb) pymb=$2; shift 2 ;;
    --where) where=$2; shift 2 ;;
    -h|--help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "pgn-vs: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] && [ -f "$1" ] || { echo "pgn-vs: name one PGN file (see --help)" >&2; exit 2; }
file=$1
dirfill=${DIRFILL:-build/release/dirfill}
python=${PYTHON:-build/venv/bin/python}
extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$extract" ] || extract=""
[ -x "$dirfill" ] || make build >/dev/null
mb=$(stat -c %s "$file" | awk '{printf "%.3f", $1 / 1e6}')
[ -f "$file.zst" ] || zstd -q -3 -k -o "$file.zst" "$file"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# field N of dirfill's summary line: 2 games (all found), 4 kept, 6 filtered, 12 positions
summary() { "$dirfill" pgn --threads 1 "$@" | awk -v f="$field" '{print $f}'; }
# The seconds of dirfill's summary line (its own clock: the read, not the process's start).
own_seconds() { awk '{for (k = 1; k < NF; k++) if ($(k+1) == "s,") print $k}'; }
# The median of a list of numbers separated by spaces.
list_median() { echo "$1" | tr ' ' '\n' | grep . | median; }
field=2; games=$(summary "$file")
field=12; plies=$(summary "$file")
field=2; headers_games=$(summary --headers "$file")
field=4; kept=$(summary --where "$where" "$file")
echo "$file: $mb MB, $games games, $plies moves; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $runs runs"

# The readers, by mode: a name, a mode, a command (the file is its last argument). Each mode's
# first reader is dirfill's: the other readers' ratios are against it.
declare -a names cmds modes
add() { names+=("$1"); modes+=("$2"); cmds+=("$3"); }
not_comparable() { printf '%-48s %s\n' "$1" "not comparable: $2"; }
add "dirfill pgn, 1 thread" valid "$dirfill pgn --threads 1"
add "dirfill pgn, 2 threads" valid "$dirfill pgn --threads 2"
add "dirfill pgn, 1 thread, .zst" zst "$dirfill pgn --threads 1"
add "dirfill pgn, 2 threads, .zst" zst "$dirfill pgn --threads 2"
if [ -n "$extract" ]; then
  # pgn-extract's own counts: games on stderr, moves from the PlyCount tags it writes.
  "$extract" --plycount -s -o "$tmp/extract.pgn" "$file" 2>"$tmp/extract.log" || true
  e_games=$(grep -c '^\[Event ' "$tmp/extract.pgn" || true)
  e_plies=$(sed -n 's/^\[PlyCount "\([0-9]*\)"\]/\1/p' "$tmp/extract.pgn" | awk '{s += $1} END {print s + 0}')
  if [ "$e_games" = "$games" ] && [ "$e_plies" = "$plies" ]; then
    add "pgn-extract -r (Debian $(dpkg-query -W -f='${Version}' pgn-extract 2>/dev/null))" valid "$extract -r -s"
  else
    not_comparable "pgn-extract -r" "$e_games games, $e_plies moves"
  fi
fi
if [ -n "$cl" ]; then
  read -r _ c_games _ c_plies _ < <("$cl" "$file")
  if [ "$c_games" = "$games" ] && [ "$c_plies" = "$plies" ]; then
    add "chess-library StreamParser+parseSan+makeMove" valid "$cl"
  else
    not_comparable "chess-library" "$c_games games, $c_plies moves"
  fi
  printf '#!/bin/sh\nexec "%s" "$1" --parse-only\n' "$cl" >"$tmp/cl-parse"
  chmod +x "$tmp/cl-parse"
  read -r _ p_games _ < <("$tmp/cl-parse" "$file")
  add "dirfill pgn --headers, 1 thread" headers "$dirfill pgn --headers --threads 1"
  if [ "$p_games" = "$headers_games" ]; then
    add "chess-library StreamParser, parse only" headers "$tmp/cl-parse"
  else
    not_comparable "chess-library parse only" "$p_games games"
  fi
fi
add "dirfill pgn --where '$where', 1 thread" filtered "$dirfill pgn --threads 1 --where $(printf %q "$where")"
if [ -n "$extract" ]; then
  # The same condition in pgn-extract's tag file syntax: TAG OP "VALUE".
  echo "$where" | sed 's/^ *\([A-Za-z0-9_]*\) *\([<>=!]*\) *\(.*\)$/\1 \2 "\3"/; s/ != / <> /' >"$tmp/tags"
  "$extract" -s -t"$tmp/tags" -o "$tmp/kept.pgn" "$file" 2>/dev/null || true
  t_games=$(grep -c '^\[Event ' "$tmp/kept.pgn" || true)
  if [ "$t_games" = "$kept" ]; then
    add "pgn-extract -t ($(cat "$tmp/tags"))" filtered "$extract -s -t$tmp/tags -o /dev/null"
  else
    not_comparable "pgn-extract -t" "$t_games games kept, dirfill $kept"
  fi
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
have_python=""
if [ -x "$python" ] && "$python" -c 'import dirfill' 2>/dev/null; then
  have_python=1
  add "Python pgn_positions, 1 thread" python ""
fi

# The clock is bash's own (EPOCHREALTIME, bash 5): a `date` process at each end of a run would
# add its own fork and exec to every time measured, a large part of a short --where read's.
declare -A t own
for ((r = 0; r < runs; r++)); do
  for i in "${!cmds[@]}"; do
    case ${modes[$i]} in
      zst) input=$file.zst ;;
      *) input=$file ;;
    esac
    if [ "${modes[$i]}" = python ]; then
      t[$i]+="$("$python" -c "$pyscript" "$file" positions | awk '{print $1}') "
      t[planes]+="$("$python" -c "$pyscript" "$file" planes | awk '{print $1}') "
      continue
    fi
    s=${EPOCHREALTIME/,/.}
    eval "${cmds[$i]} \"\$input\"" >"$tmp/out" 2>&1 || true
    e=${EPOCHREALTIME/,/.}
    t[$i]+="$(echo "$e - $s" | bc -l) "
    # dirfill's own clock too (its summary's seconds: the read, without the process's start,
    # which is a sizeable part of a filtered read).
    [ "${modes[$i]}" = filtered ] || [ "$i" = 0 ] &&
      own[$i]+="$(own_seconds <"$tmp/out") "
  done
done
rate() { list_median "${t[$1]}" | awk -v mb="$mb" '{printf "%.1f", mb / $1}'; }
declare -A first
printf '%-48s %10s\n' "reader" "MB/s"
ratio() { echo "$(rate "$1") / $(rate "$2")" | bc -l; }
for mode in valid zst headers filtered python; do
  for i in "${!cmds[@]}"; do
    [ "${modes[$i]}" = "$mode" ] || continue
    row=$(printf '%-48s %10s' "${names[$i]}" "$(rate "$i")")
    if [ -z "${first[$mode]:-}" ]; then
      first[$mode]=$i
      case $mode in
        zst) printf '%s   (%.0f%% of plain)\n' "$row" "$(echo "100 * $(ratio "$i" 0)" | bc -l)" ;;
        filtered)
          printf '%s   (%s of %s games kept; %.2fx the unfiltered read; %.2fx by dirfill'"'"'s own clock)\n' \
            "$row" "$kept" "$games" "$(ratio "$i" 0)" \
            "$(echo "$(list_median "${own[0]}") / $(list_median "${own[$i]}")" | bc -l)" ;;
        python)
          printf '%s   (%.0f%% of the C reader; %.0f positions/s)\n' "$row" "$(echo "100 * $(ratio "$i" 0)" | bc -l)" \
            "$(echo "$plies * $(rate "$i") / $mb" | bc -l)"
          printf '%-48s %10s   (%.0f positions/s)\n' "Python pgn_positions + planes, 1 thread" "$(rate planes)" \
            "$(echo "$plies * $(rate planes) / $mb" | bc -l)" ;;
        *) echo "$row" ;;
      esac
    elif [[ ${names[$i]} == dirfill* ]]; then
      printf '%s   (%.2fx one thread)\n' "$row" "$(ratio "$i" "${first[$mode]}")"
    else
      printf '%s   (dirfill: %.2fx)\n' "$row" "$(ratio "${first[$mode]}" "$i")"
    fi
  done
done
[ -n "$have_python" ] || echo "(Python: build/venv has no dirfill; run make python)"

if [ -n "$pychess" ]; then
  # The first M MB, cut where a game starts, read by both; the counts compared first.
  part=$tmp/part.pgn
  head -c "$((pymb * 1000000))" "$file" | awk '/^\[Event /{last=NR} {lines[NR]=$0} END{for(i=1;i<last;i++) print lines[i]}' >"$part"
  pmb=$(stat -c %s "$part" | awk '{printf "%.3f", $1 / 1e6}')
  pcread() { "$python" - "$pychess" "$part" <<'EOF'
import sys, time
sys.path.insert(0, sys.argv[1])
import chess.pgn
t, games, plies = time.perf_counter(), 0, 0
with open(sys.argv[2]) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        games += 1
        plies += sum(1 for _ in game.mainline_moves()) if not game.errors else 0
print(time.perf_counter() - t, games, plies)
EOF
  }
  field=2; pgames=$(summary "$part")
  field=12; pplies=$(summary "$part")
  read -r pcs pc_games pc_plies <<<"$(pcread)"
  if [ "$pc_games" != "$pgames" ] || [ "$pc_plies" != "$pplies" ]; then
    not_comparable "python-chess read_game" "$pc_games games, $pc_plies moves; dirfill $pgames, $pplies"
  else
    # Both timed inside the process (python-chess's start-up and imports are not counted
    # either): dirfill's own summary seconds, on the part read ten times over in one run (the
    # same games: a single read is so short that the warm-up of a fresh process and one burst
    # of a VM's noise are large parts of it), the single read's ratio beside it. The readers
    # alternate and the ratio is the median of each round's (python-chess's speed drifts from
    # one minute to the next).
    for ((k = 0; k < 10; k++)); do cat "$part"; done >"$tmp/part10.pgn"
    secs() { "$dirfill" pgn --threads 1 "$1" | own_seconds; }
    pc_t=() ten=() once=()
    for ((r = 0; r < runs; r++)); do
      read -r pcs _ <<<"$(pcread)"
      d10=$(secs "$tmp/part10.pgn")
      d1=$(secs "$part")
      pc_t+=("$pcs")
      ten+=("$(echo "10 * $pcs / $d10" | bc -l)")
      once+=("$(echo "$pcs / $d1" | bc -l)")
    done
    printf '%-48s %10.2f   (dirfill 1 thread on the same %s MB read ten times over: %.0fx; read once: %.0fx)\n' \
      "python-chess read_game ($pc_games games)" "$(echo "$pmb / $(printf '%s\n' "${pc_t[@]}" | median)" | bc -l)" \
      "$pmb" "$(printf '%s\n' "${ten[@]}" | median)" "$(printf '%s\n' "${once[@]}" | median)"
  fi
fi

for threads in 1 2; do
  rss=$(/usr/bin/time -f %M "$dirfill" pgn --threads "$threads" "$file" 2>&1 >/dev/null | tail -n 1)
  printf 'peak resident memory, dirfill pgn --threads %s: %.1f MB\n' "$threads" "$(echo "$rss / 1024" | bc -l)"
done
