#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The example engine (build/release/examples/dfengine) in a match against another engine,
# refereed by fastchess or cutechess-cli. Neither referee is part of dirfill: build one from
# its own sources (README, "The example engine") and name it with --referee or REFEREE=.
#
#   usage: bench/match.sh [options] OPPONENT
#
# OPPONENT: sf<ELO> (Debian's Stockfish with UCI_LimitStrength and UCI_Elo ELO, 1320-3190),
#   toga2 (UCI), fairymax, phalanx or gnuchess (xboard: cutechess-cli only), or uci:PATH.
# options:
#   --games N        games, in pairs from each opening with colours swapped (default 200)
#   --tc TC          time control, moves/seconds+increment as the referee takes it (5+0.05)
#   --nodes N        a node budget per move for both engines instead of a clock (not with
#                    toga2, which ignores it)
#   --concurrency N  games at once (default 1: two engines on two cores; more oversubscribes
#                    a clock match and turns losses into time forfeits)
#   --out DIR        where the PGN and the referee's log go (default build/match)
#   --referee PATH   fastchess or cutechess-cli (default $REFEREE, else one on PATH)
#
# It prints the games, wins, draws and losses of dfengine, its score, the Elo difference with
# a 95% error bar (from the game results: trinomial, pairs not assumed), and, as the referee
# recorded them in the PGN's Termination tags, dfengine's illegal moves, time forfeits and
# crashes or disconnects. Every game is then replayed by `dirfill pgn`: a move the library
# does not accept is counted as an illegal move too. Exit status 1 when any of those is not 0.
set -euo pipefail
cd "$(dirname "$0")/.."
games=200 tc=5+0.05 nodes="" concurrency=1 out=build/match referee=${REFEREE:-}
while [ $# -gt 0 ]; do
  case $1 in
    --games) games=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --referee) referee=$2; shift 2 ;;
    -h|--help) sed -n '3,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
engine=build/release/examples/dfengine dirfill=build/release/dirfill
[ -x "$engine" ] && [ -x "$dirfill" ] || {
  cmake --preset release -DDIRFILL_BUILD_TESTS=ON >/dev/null &&
    cmake --build --preset release --target dfengine dirfill_cli >/dev/null; }

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
  uci:*) them=(cmd="$(realpath "${opponent#uci:}")" name="$(basename "${opponent#uci:}")" proto=uci) ;;
  *) echo "match: unknown opponent $opponent (see --help)" >&2; exit 2 ;;
esac
[ -x "${them[0]#cmd=}" ] || { echo "match: ${them[0]#cmd=} not found (apt-get install it)" >&2; exit 2; }

mkdir -p "$out"
stamp=$(date +%Y%m%d-%H%M%S)
pgn="$out/dfengine-vs-$opponent-$stamp.pgn" log="$out/dfengine-vs-$opponent-$stamp.log"
# The match plays a copy: a rebuild while it runs must not change the engine under it.
cp "$engine" "$out/dfengine-$stamp"
engine="$out/dfengine-$stamp"
limit=(tc="$tc")
[ -n "$nodes" ] && limit=(tc=inf nodes="$nodes")
rounds=$(( (games + 1) / 2 ))
here=$PWD
openings=$here/bench/openings.epd
case $pgn in /*) ;; *) pgn=$here/$pgn log=$here/$log engine=$here/$engine ;; esac
# fastchess writes its config.json into the working directory: the output directory's.
cd "$out"
if [ $kind = fastchess ]; then
  "$referee" -engine cmd="$engine" name=dfengine -engine "${them[@]}" \
    -each "${limit[@]}" option.Hash=16 -openings file="$openings" format=epd order=random \
    -srand "$RANDOM" -rounds "$rounds" -repeat -concurrency "$concurrency" -recover \
    -pgnout file="$pgn" -output format=cutechess > "$log" 2>&1 || true
else
  "$referee" -engine cmd="$engine" name=dfengine proto=uci -engine "${them[@]}" \
    -each "${limit[@]}" option.Hash=16 -openings file="$openings" format=epd order=random \
    -srand "$RANDOM" -rounds "$rounds" -games 2 -repeat -concurrency "$concurrency" -recover \
    -pgnout "$pgn" > "$log" 2>&1 || true
fi
[ -s "$pgn" ] || { echo "match: the referee wrote no games; its log: $log" >&2; tail -n 5 "$log" >&2; exit 1; }

# The results from dfengine's side, and its faults as the referee named them.
awk '
  /^\[White "/ { white = $0; sub(/^\[White "/, "", white); sub(/"\]$/, "", white) }
  /^\[Result "/ { result = $0; sub(/^\[Result "/, "", result); sub(/"\]$/, "", result) }
  /^\[Termination "/ { term = $0; sub(/^\[Termination "/, "", term); sub(/"\]$/, "", term) }
  /^\[Event / && started { tally() }
  /^\[Event / { started = 1; term = "" }
  function tally(   ours_white, lost) {
    ours_white = white == "dfengine"
    if (result == "1/2-1/2") d++
    else if ((result == "1-0") == ours_white && result != "*") w++
    else if (result != "*") { l++; lost = 1 }
    if (lost && term == "illegal move") illegal++
    if (lost && term == "time forfeit") forfeit++
    if (lost && term == "abandoned") crash++
  }
  END {
    tally(); n = w + d + l
    s = n ? (w + d / 2) / n : 0
    # The variance of one game score, then the 95% interval of the mean, mapped to Elo.
    var = n ? (w * (1 - s) ^ 2 + d * (0.5 - s) ^ 2 + l * (0 - s) ^ 2) / n : 0
    e = 1.96 * sqrt(var / (n ? n : 1))
    printf "games %d  wins %d  draws %d  losses %d  score %.1f%%\n", n, w, d, l, 100 * s
    if (s > 0 && s < 1) {
      elo = -400 * log(1 / s - 1) / log(10)
      lo = (s - e > 0) ? -400 * log(1 / (s - e) - 1) / log(10) : -999
      hi = (s + e < 1) ? -400 * log(1 / (s + e) - 1) / log(10) : 999
      printf "Elo %+.0f  95%% interval [%+.0f, %+.0f]  (+/- %.0f)\n", elo, lo, hi, (hi - lo) / 2
    }
    printf "dfengine: illegal moves %d  time forfeits %d  crashes/disconnects %d\n", illegal + 0, forfeit + 0, crash + 0
    exit (illegal + forfeit + crash) ? 1 : 0
  }' "$pgn" && faults=0 || faults=1

cd "$here"

# The library as a second referee: every move of every game replayed.
bad=$("$dirfill" pgn --json "$pgn" | grep -c '"error"' || true)
echo "dirfill pgn: $bad games with a move it does not accept"
echo "PGN: $pgn  referee log: $log"
[ "$faults" = 0 ] && [ "$bad" = 0 ]
