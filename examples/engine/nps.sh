#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Nodes per second of UCI engines (dfengine builds, usually) searched to a fixed depth, side by side.
#
#   usage: examples/engine/nps.sh [--runs N] [--depth D] [--quick] NAME=PATH [NAME=PATH...]
#
# Each engine, a fresh process per search (an empty transposition table, one thread), gets
# `position fen F` and `go depth D` on the same middlegame positions (Kiwipete, CPW 6 and the
# Italian position `make picture` draws; depths chosen so that dfengine searches each for 1-2 s on
# a Zen 5). The engines take turns, RUNS times (default 5), so that load on the machine hits all
# of them alike. From the last `info ... nodes N ... time T` before `bestmove` it reports, per
# position and engine, the nodes, the median time and the median nodes per second, and each
# engine's nodes per second over the first engine's, with their geometric mean. Two builds of
# the same search code search the same tree at a fixed depth: when the node counts differ the
# searches differ, and the ratio compares different trees (it says so; compare the nodes and
# the times). On a loaded machine the engine's clock also counts the time it waited for a CPU:
# the CPU time the engine's process took for the search (/proc, 10 ms ticks) is given beside it,
# with the ratio of nodes per CPU second. --depth D searches every position to depth D; --quick
# is one run at depth 6 (a smoke test of the script and the engines, too short to time). The
# CPU and the load (uptime) are printed before and after.
set -euo pipefail
runs=5
depth=""
engines=()
usage() { sed -n '3,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --depth) depth=$2; shift 2 ;;
    --quick) runs=1; depth=6; shift ;;
    -h|--help) usage; exit 0 ;;
    *=*) engines+=("$1"); shift ;;
    *) echo "nps: unknown argument '$1' (engines are NAME=PATH; see --help)" >&2; exit 2 ;;
  esac
done
[ ${#engines[@]} -gt 0 ] || { echo "nps: name at least one engine as NAME=PATH (see --help)" >&2; exit 2; }
for e in "${engines[@]}"; do
  [ -x "${e#*=}" ] || { echo "nps: ${e#*=} is not an executable" >&2; exit 2; }
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "nps: --runs takes a positive count" >&2; exit 2; }
[ -z "$depth" ] || [[ $depth =~ ^[1-9][0-9]*$ ]] || { echo "nps: --depth takes a positive depth" >&2; exit 2; }

# name|FEN|depth
positions='kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|14
cpw6|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|17
italian|r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 5|15'

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

tick_ms=$((1000 / $(getconf CLK_TCK)))
# The CPU time process $1 has taken, in milliseconds (user and system, /proc/PID/stat).
cpu_ms() {
  local stat
  read -r stat <"/proc/$1/stat"
  stat=${stat##*) } # the fields after the command's name, which may hold spaces
  read -r -a stat <<<"$stat"
  echo $(((stat[11] + stat[12]) * tick_ms))
}

# Searches FEN $2 to depth $3 with engine $1; prints "nodes milliseconds cpu-milliseconds": the
# engine's last info line that has nodes and time, and the CPU time its process took from the go
# to the bestmove. It has answered readyok first, so its start-up is not counted.
search() {
  local line nodes="" ms="" words i cpu0 ready="" from to pid
  trap '' PIPE # an engine that has died: its pipe's write fails instead of ending the script
  coproc ENGINE { exec "$1" 2>/dev/null; }
  # Bash forgets the coprocess's variables once it has exited.
  from=${ENGINE[0]} to=${ENGINE[1]} pid=$ENGINE_PID
  printf 'uci\nucinewgame\nposition fen %s\nisready\n' "$2" 1>&"$to" 2>/dev/null || true
  while read -r -t 30 line <&"$from"; do [ "$line" = readyok ] && { ready=1; break; }; done
  if [ -z "$ready" ]; then
    echo "nps: $1 did not answer isready with readyok (is it a UCI engine?)" >&2
    kill "$pid" 2>/dev/null || true
    exit 1
  fi
  cpu0=$(cpu_ms "$pid")
  printf 'go depth %s\n' "$3" >&"$to"
  while read -r -t 600 line <&"$from"; do
    case $line in
      bestmove*) break ;;
      "info "*" nodes "*" time "*)
        read -r -a words <<<"$line"
        for ((i = 0; i + 1 < ${#words[@]}; i++)); do
          case ${words[i]} in nodes) nodes=${words[i + 1]} ;; time) ms=${words[i + 1]} ;; pv) break ;; esac
        done ;;
    esac
  done
  cpu0=$(($(cpu_ms "$pid") - cpu0))
  printf 'quit\n' >&"$to" || true
  wait "$pid" 2>/dev/null || true
  if [ -z "$nodes" ] || [ -z "$ms" ]; then
    echo "nps: $1 gave no 'info ... nodes ... time' line" >&2
    exit 1
  fi
  echo "$nodes $ms $cpu0"
}

echo "CPU:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(nproc) CPUs; load before:$(uptime | sed 's/.*load average://')"
printf '%-15s' ""
for e in "${engines[@]}"; do printf ' | %-49.49s' "${e%%=*}"; done
printf '\n%-9s %5s' position depth
for e in "${engines[@]}"; do printf ' | %10s %7s %7s %6s %7s %7s' nodes ms kn/s ratio cpu-ms ratio; done
echo
declare -A logsum=() logsum_cpu=()
npos=0
differ=0
while IFS='|' read -r name fen d; do
  d=${depth:-$d}
  declare -A nodes=() times=() cpus=()
  for _ in $(seq "$runs"); do
    for e in "${engines[@]}"; do
      out=$(search "${e#*=}" "$fen" "$d")
      read -r n ms cpu <<<"$out"
      times[$e]+="$ms "
      cpus[$e]+="$cpu "
      # One thread and a fresh table: every run of one engine searches the same tree.
      [ -z "${nodes[$e]:-}" ] || [ "${nodes[$e]}" = "$n" ] ||
        echo "nps: ${e%%=*} searched $name to depth $d in ${nodes[$e]} and then $n nodes" >&2
      nodes[$e]=$n
    done
  done
  printf '%-9s %5s' "$name" "$d"
  first=""
  first_cpu=""
  mark=""
  for e in "${engines[@]}"; do
    ms=$(echo "${times[$e]}" | tr ' ' '\n' | grep . | median)
    [ "$ms" -gt 0 ] || ms=1
    rate=$(echo "${nodes[$e]} / $ms" | bc -l)
    cpu=$(echo "${cpus[$e]}" | tr ' ' '\n' | grep . | median)
    [ "$cpu" -gt 0 ] || cpu=1
    rate_cpu=$(echo "${nodes[$e]} / $cpu" | bc -l)
    [ -n "$first" ] || { first=$rate; first_cpu=$rate_cpu; }
    ratio=$(echo "$rate / $first" | bc -l)
    ratio_cpu=$(echo "$rate_cpu / $first_cpu" | bc -l)
    [ "${nodes[$e]}" = "${nodes[${engines[0]}]}" ] || { mark='*'; differ=1; }
    printf ' | %10s %7s %7.0f %5.2fx %7s %6.2fx' "${nodes[$e]}" "$ms" "$rate" "$ratio" "$cpu" "$ratio_cpu"
    logsum[$e]=$(echo "${logsum[$e]:-0} + l($ratio)" | bc -l)
    logsum_cpu[$e]=$(echo "${logsum_cpu[$e]:-0} + l($ratio_cpu)" | bc -l)
  done
  echo " $mark"
  npos=$((npos + 1))
  unset nodes times cpus
done <<<"$positions"
printf '%-15s' "geometric mean"
for e in "${engines[@]}"; do
  printf ' | %26s %5.2fx %7s %6.2fx' "" "$(echo "e(${logsum[$e]} / $npos)" | bc -l)" \
    "" "$(echo "e(${logsum_cpu[$e]} / $npos)" | bc -l)"
done
echo
echo "runs $runs per engine and position, alternated; ms: the engine's own time, cpu-ms: its process's CPU" \
  "time, medians; kn/s by the engine's time; ratios: nodes per second over the first engine's"
[ "$differ" = 0 ] || echo "* the engines searched different trees (node counts differ): the ratio of nodes per second" \
  "compares different searches; compare the nodes and the times"
echo "load after:$(uptime | sed 's/.*load average://')"
