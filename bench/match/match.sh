#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The example engine (build/release/examples/dfengine) in a match against another engine,
# refereed by fastchess or cutechess-cli. Neither referee is part of dirfill: build one from
# its own sources (examples/engine/README.md) and name it with --referee or REFEREE=.
#
#   usage: bench/match/match.sh [options] OPPONENT
#
# OPPONENT: sf<ELO> (Debian's Stockfish with UCI_LimitStrength and UCI_Elo ELO, 1320-3190),
#   toga2 (UCI), fairymax, phalanx or gnuchess (xboard: cutechess-cli only), or uci:PATH
#   (named by PATH's base name).
# options:
#   --engine [NAME=]PATH  a dfengine build to play (default build/release/examples/dfengine,
#                    named dfengine); given more than once, every build plays the opponent,
#                    the builds' games interleaved (a gauntlet), each summed up apart: hand
#                    and tuned weights measured in one run. NAME defaults to PATH's base name.
#   --games N        games of each build, in pairs from each opening with colours swapped
#                    (default 200)
#   --tc TC          time control, moves/seconds+increment as the referee takes it (5+0.05)
#   --nodes N        a node budget per move for both engines instead of a clock (not with
#                    toga2, which ignores it)
#   --margin MS      the referee's timemargin: a move may overrun the clock by MS milliseconds
#                    without forfeiting (its clock then stands at 0), for a loaded machine, where
#                    a starved engine loses on time rather than at chess (default 0)
#   --concurrency N  games at once (default 1: two engines on two cores; more oversubscribes
#                    a clock match and turns losses into time forfeits)
#   --out DIR        where the PGN and the referee's log go (default build/match)
#   --referee PATH   fastchess or cutechess-cli (default $REFEREE, else one on PATH)
#
# It prints, for each build, its games, wins, draws and losses, its score, the Elo difference
# with a 95% error bar (from the game results: trinomial, pairs not assumed), and, as the
# referee recorded them in the PGN's Termination tags, its illegal moves, time forfeits and
# crashes or disconnects. Every game is then replayed by `dirfill pgn`: a move the library
# does not accept is counted as an illegal move too. Exit status 1 when any of those is not 0.
set -euo pipefail
cd "$(dirname "$0")/../.."
games=200 tc=5+0.05 nodes="" margin=0 concurrency=1 out=build/match referee=${REFEREE:-}
names=() paths=()
while [ $# -gt 0 ]; do
  case $1 in
    --engine)
      case $2 in
        *=*) names+=("${2%%=*}") paths+=("${2#*=}") ;;
        *) names+=("$(basename "$2")") paths+=("$2") ;;
      esac
      shift 2 ;;
    --games) games=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --margin) margin=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --referee) referee=$2; shift 2 ;;
    -h|--help) sed -n '3,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "match: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "match: name one opponent (see --help)" >&2; exit 2; }
opponent=$1
if [ -z "$referee" ]; then
  referee=$(command -v fastchess || command -v cutechess-cli || true)
fi
[ -n "$referee" ] && [ -x "$referee" ] ||
  { echo "match: no referee; build fastchess or cutechess-cli and pass --referee PATH" >&2; exit 2; }
referee=$(realpath "$(command -v "$referee" || echo "$referee")")
case $(basename "$referee") in
  fastchess*) kind=fastchess ;;
  cutechess*) kind=cutechess ;;
  *) echo "match: $referee is neither fastchess nor cutechess-cli" >&2; exit 2 ;;
esac
dirfill=build/release/dirfill
[ ${#paths[@]} -gt 0 ] || { names=(dfengine) paths=(build/release/examples/dfengine); }
[ -x "${paths[0]}" ] && [ -x "$dirfill" ] || {
  cmake --preset release -DDIRFILL_BUILD_TESTS=ON >/dev/null &&
    cmake --build --preset release --target dfengine dirfill_cli >/dev/null; }
for path in "${paths[@]}"; do
  [ -x "$path" ] || { echo "match: no engine at $path" >&2; exit 2; }
done

# The opponent as referee options.
case $opponent in
  sf[0-9]*)
    elo=${opponent#sf}
    [ "$elo" -ge 1320 ] && [ "$elo" -le 3190 ] || { echo "match: UCI_Elo is 1320 to 3190" >&2; exit 2; }
    exe=$(command -v stockfish || echo /usr/games/stockfish)
    them=(cmd="$exe" name="$opponent" proto=uci option.UCI_LimitStrength=true option.UCI_Elo="$elo") ;;
  toga2)
    # It ignores `go nodes` and would think for ever.
    [ -z "$nodes" ] || { echo "match: toga2 has no node limit: use --tc" >&2; exit 2; }
    them=(cmd="$(command -v toga2 || echo /usr/games/toga2)" name=toga2 proto=uci) ;;
  fairymax|phalanx|gnuchess)
    [ $kind = cutechess ] || { echo "match: $opponent speaks xboard: use cutechess-cli" >&2; exit 2; }
    exe=$(command -v "$opponent" || echo "/usr/games/$opponent")
    them=(cmd="$exe" name="$opponent" proto=xboard)
    [ "$opponent" = gnuchess ] && them[0]="cmd=$exe" && them+=(arg=--xboard) ;;
  uci:*)
    exe=$(realpath "${opponent#uci:}")
    opponent=$(basename "$exe")
    them=(cmd="$exe" name="$opponent" proto=uci) ;;
  *) echo "match: unknown opponent $opponent (see --help)" >&2; exit 2 ;;
esac
[ -x "${them[0]#cmd=}" ] || { echo "match: ${them[0]#cmd=} not found (apt-get install it)" >&2; exit 2; }
# The summary tells the players apart by name.
[ "$(printf '%s\n' "${names[@]}" "$opponent" | sort | uniq -d)" = "" ] ||
  { echo "match: two players named alike (${names[*]} $opponent): --engine NAME=PATH" >&2; exit 2; }

mkdir -p "$out"
stamp=$(date +%Y%m%d-%H%M%S)
here=$PWD
book=$PWD/bench/match/openings.epd
case $out in /*) ;; *) out=$here/$out ;; esac
pgn="$out/$(IFS=+; echo "${names[*]}")-vs-$opponent-$stamp.pgn" log="${pgn%.pgn}.log"
# The match plays copies: a rebuild while it runs must not change an engine under it.
ours=()
for i in "${!paths[@]}"; do
  cp "${paths[$i]}" "$out/${names[$i]}-$stamp"
  ours+=(-engine cmd="$out/${names[$i]}-$stamp" name="${names[$i]}")
  [ $kind = cutechess ] && ours+=(proto=uci)
done
limit=(tc="$tc" timemargin="$margin")
[ -n "$nodes" ] && limit=(tc=inf nodes="$nodes")
rounds=$(( (games + 1) / 2 ))
# The openings, drawn here rather than by the referee: fastchess keeps only the first `rounds`
# openings of its shuffled book and hands them out pair by pair across the builds, so with two
# builds and an even count each build played half of them twice and never the other half. A
# book whose size is prime to the number of builds gives every build every opening once
# before any is repeated, in the same order for both referees.
seed=$RANDOM
size=$(grep -c . "$book")
[ "$rounds" -lt "$size" ] && size=$rounds
coprime() {  # Euclid
  local a=$1 b=$2 r
  while [ "$b" -gt 0 ]; do r=$((a % b)) a=$b b=$r; done
  [ "$a" = 1 ]
}
while ! coprime "$size" ${#names[@]}; do size=$((size - 1)); done
openings=${pgn%.pgn}.epd
awk -v seed="$seed" 'BEGIN { srand(seed) } NF { printf "%.9f\t%s\n", rand(), $0 }' \
  "$book" | sort -n | awk -v n="$size" -F '\t' 'NR <= n { print $2 }' > "$openings"
# The opponent first: a gauntlet's first engine plays all the others, so every build plays it
# and never another build (with one build it is the plain match).
# fastchess writes its config.json into the working directory: the output directory's.
cd "$out"
if [ $kind = fastchess ]; then
  "$referee" -engine "${them[@]}" "${ours[@]}" -tournament gauntlet \
    -each "${limit[@]}" option.Hash=16 -openings file="$openings" format=epd order=sequential \
    -srand "$seed" -rounds "$rounds" -repeat -concurrency "$concurrency" -recover \
    -pgnout file="$pgn" -output format=cutechess > "$log" 2>&1 || true
else
  "$referee" -engine "${them[@]}" "${ours[@]}" -tournament gauntlet \
    -each "${limit[@]}" option.Hash=16 -openings file="$openings" format=epd order=sequential \
    -srand "$seed" -rounds "$rounds" -games 2 -repeat -concurrency "$concurrency" -recover \
    -pgnout "$pgn" > "$log" 2>&1 || true
fi
[ -s "$pgn" ] || { echo "match: the referee wrote no games; its log: $log" >&2; tail -n 5 "$log" >&2; exit 1; }

# The results from each build's side, and its faults as the referee named them (an unfinished
# game, "*", counts for nothing: a match stopped early is summed up as far as it went).
awk -v names="${names[*]}" '
  BEGIN { k = split(names, order, " "); for (i = 1; i <= k; i++) ours[order[i]] = 1 }
  /^\[White "/ { white = $0; sub(/^\[White "/, "", white); sub(/"\]$/, "", white) }
  /^\[Black "/ { black = $0; sub(/^\[Black "/, "", black); sub(/"\]$/, "", black) }
  /^\[Result "/ { result = $0; sub(/^\[Result "/, "", result); sub(/"\]$/, "", result) }
  /^\[Termination "/ { term = $0; sub(/^\[Termination "/, "", term); sub(/"\]$/, "", term) }
  /^\[Event / && started { tally() }
  /^\[Event / { started = 1; term = "" }
  function tally(   e, ours_white, lost) {
    ours_white = white in ours
    e = ours_white ? white : black
    if (result == "1/2-1/2") d[e]++
    else if ((result == "1-0") == ours_white && result != "*") w[e]++
    else if (result != "*") { l[e]++; lost = 1 }
    if (lost && term == "illegal move") illegal[e]++
    if (lost && term == "time forfeit") forfeit[e]++
    if (lost && term == "abandoned") crash[e]++
  }
  END {
    tally()
    for (i = 1; i <= k; i++) {
      e = order[i]; n = w[e] + d[e] + l[e]
      s = n ? (w[e] + d[e] / 2) / n : 0
      # The variance of one game score, then the 95% interval of the mean, mapped to Elo.
      var = n ? (w[e] * (1 - s) ^ 2 + d[e] * (0.5 - s) ^ 2 + l[e] * (0 - s) ^ 2) / n : 0
      h = 1.96 * sqrt(var / (n ? n : 1))
      printf "%s: games %d  wins %d  draws %d  losses %d  score %.1f%%\n", e, n, w[e], d[e], l[e], 100 * s
      if (s > 0 && s < 1) {
        elo = -400 * log(1 / s - 1) / log(10) + 0  # + 0: -0 printed as +0
        lo = (s - h > 0) ? -400 * log(1 / (s - h) - 1) / log(10) : -999
        hi = (s + h < 1) ? -400 * log(1 / (s + h) - 1) / log(10) : 999
        printf "%s: Elo %+.0f  95%% interval [%+.0f, %+.0f]  (+/- %.0f)\n", e, elo, lo, hi, (hi - lo) / 2
      }
      printf "%s: illegal moves %d  time forfeits %d  crashes/disconnects %d\n", e, illegal[e], forfeit[e], crash[e]
      faults += illegal[e] + forfeit[e] + crash[e]
    }
    exit faults ? 1 : 0
  }' "$pgn" && faults=0 || faults=1

cd "$here"

# The library as a second referee: every move of every game replayed.
bad=$("$dirfill" pgn --json "$pgn" | grep -c '"error"' || true)
echo "dirfill pgn: $bad games with a move it does not accept"
echo "PGN: $pgn  referee log: $log  openings: $openings (seed $seed)"
[ "$faults" = 0 ] && [ "$bad" = 0 ]
