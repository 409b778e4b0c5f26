#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dirfill's perft against other programs, measured side by side on this machine.
#
#   usage: bench/perft-vs.sh [--runs N] [--quick] ENGINE...
#
# ENGINE is a UCI engine (PATH or uci:PATH; `go perft D` after `position fen F`) or a perft
# driver (driver:PATH; run as `PATH FEN DEPTH`, printing the node count as the last line of
# its standard output). Before anything is timed, every program's node count of every position
# is checked against dirfill's; then the programs run alternately, RUNS times each (default 5),
# so that load on the machine hits all of them alike. A UCI engine is timed from `go perft` to
# its `Nodes searched` line (its start-up excluded: it has answered `readyok` first); a driver
# by its wall time less its start-up (the median of depth-1 runs); dirfill by the time its
# perft reports. The table gives millions of nodes per second (medians) and dirfill's speed over
# each program's: the median of the runs' ratios, each from a dirfill run and the program's run
# right after it (a VM whose speed drifts or comes in bursts moves a pair together, where the
# medians of each program's own runs may come from different moments), then the geometric mean
# of those ratios over the CPW positions 2 to 6 (the start position is listed apart).
# DIRFILL=path overrides build/release/dirfill (built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5
quick=0
engines=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) engines+=("$1"); shift ;;
  esac
done
[ ${#engines[@]} -gt 0 ] || { echo "perft-vs: name at least one engine (see --help)" >&2; exit 2; }
dirfill=${DIRFILL:-build/release/dirfill}
[ -x "$dirfill" ] || make build >/dev/null

# name|FEN|depth (quick: one less). CPW 5 at depth 6: at depth 5 (90 M nodes) the fastest
# programs finish in a few times their own start-up, too short to time.
positions='start|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6
kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5
cpw3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|7
cpw4|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|6
cpw5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|6
cpw6|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5'

# The clock is bash's own (EPOCHREALTIME, bash 5): a `date` process at each end of a run would
# add its own fork and exec to every time measured.
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
kind() { case $1 in driver:*) echo driver ;; *) echo uci ;; esac; }
path() { local p=${1#uci:}; echo "${p#driver:}"; }

# Runs engine $1 on FEN $2 to depth $3; prints its node count and the seconds its perft took.
run_engine() {
  local exe t0 t1 line nodes=""
  exe=$(path "$1")
  if [ "$(kind "$1")" = driver ]; then
    t0=${EPOCHREALTIME/,/.}
    nodes=$("$exe" "$2" "$3" 2>/dev/null | tail -n 1)
    t1=${EPOCHREALTIME/,/.}
    echo "$nodes $(echo "$t1 - $t0" | bc -l)"
    return
  fi
  coproc ENGINE { "$exe" 2>/dev/null; }
  printf 'uci\nposition fen %s\nisready\n' "$2" >&"${ENGINE[1]}"
  while read -r line <&"${ENGINE[0]}"; do [ "$line" = readyok ] && break; done
  t0=${EPOCHREALTIME/,/.}
  printf 'go perft %s\n' "$3" >&"${ENGINE[1]}"
  while read -r line <&"${ENGINE[0]}"; do
    case $line in "Nodes searched"*) nodes=${line##* }; break ;; esac
  done
  t1=${EPOCHREALTIME/,/.}
  printf 'quit\n' >&"${ENGINE[1]}"
  wait "$ENGINE_PID" 2>/dev/null || true
  echo "$nodes $(echo "$t1 - $t0" | bc -l)"
}
# A driver's start-up: the median of three depth-1 runs; a UCI engine's is not timed.
startup_of() {
  [ "$(kind "$1")" = driver ] || { echo 0; return; }
  for _ in 1 2 3; do run_engine "$1" "$2" 1 | cut -d' ' -f2; done | median
}
dirfill_seconds() {
  "$dirfill" perft --json --depth "$2" --fen "$1" | sed 's/.*"seconds": \([0-9.]*\).*/\1/'
}

printf '%-9s %5s %11s %12s' position depth nodes "dirfill Mn/s"
for e in "${engines[@]}"; do printf ' | %-24.24s %8s' "$(basename "$(path "$e")") Mn/s" ratio; done
echo
declare -A logsum
while IFS='|' read -r name fen depth; do
  [ "$quick" = 1 ] && depth=$((depth - 1))
  nodes=$("$dirfill" perft --depth "$depth" --fen "$fen" 2>/dev/null | tail -n 1)
  for e in "${engines[@]}"; do
    got=$(run_engine "$e" "$fen" "$depth" | cut -d' ' -f1)
    [ "$got" = "$nodes" ] || { echo "perft-vs: $e counts $got nodes for $name depth $depth, dirfill $nodes" >&2; exit 1; }
  done
  df_times=()
  declare -A times=()
  for _ in $(seq "$runs"); do
    df_times+=("$(dirfill_seconds "$fen" "$depth")")
    for e in "${engines[@]}"; do times[$e]+="$(run_engine "$e" "$fen" "$depth" | cut -d' ' -f2) "; done
  done
  df_rate=$(echo "$nodes / $(printf '%s\n' "${df_times[@]}" | median) / 1000000" | bc -l)
  printf '%-9s %5s %11s %12.1f' "$name" "$depth" "$nodes" "$df_rate"
  for e in "${engines[@]}"; do
    startup=$(startup_of "$e" "$fen")
    t=$(echo "${times[$e]}" | tr ' ' '\n' | grep . | median)
    if [ "$(echo "$t - $startup < 2 * $startup || $t <= 0.001" | bc -l)" = 1 ]; then
      echo; echo "perft-vs: $e's run of $name is too short to time; drop --quick" >&2
      exit 1
    fi
    rate=$(echo "$nodes / ($t - $startup) / 1000000" | bc -l)
    read -r -a peer_times <<<"${times[$e]}"
    ratio=$(for i in "${!df_times[@]}"; do
      echo "(${peer_times[$i]} - $startup) / ${df_times[$i]}" | bc -l
    done | median)
    printf ' | %24.1f %7.2fx' "$rate" "$ratio"
    [ "$name" = start ] || logsum[$e]=$(echo "${logsum[$e]:-0} + l($ratio)" | bc -l)
  done
  echo
done <<<"$positions"
printf '%-42s' "geometric mean, CPW positions 2-6"
for e in "${engines[@]}"; do printf ' | %24s %7.2fx' "" "$(echo "e(${logsum[$e]} / 5)" | bc -l)"; done
echo
echo "dirfill $("$dirfill" --version | cut -d' ' -f2), backend $("$dirfill" analyze --json --fen '4k3/8/8/8/8/8/8/4K3 w - - 0 1' | sed 's/.*"backend": "\([a-z0-9]*\)".*/\1/'); CPU:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
