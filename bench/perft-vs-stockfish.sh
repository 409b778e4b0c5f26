#!/usr/bin/env bash
# dirfill perft against Debian's stockfish `go perft`, on this machine, in one run.
# Installs stockfish when missing (as root) and builds dirfill when needed. Prints each
# program's nodes per second (median of RUNS runs) and the ratio.
#   usage: bench/perft-vs-stockfish.sh [RUNS]     (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
dirfill=${DIRFILL:-build/release/dirfill}
[ -x "$dirfill" ] || make build >/dev/null
sf=$(command -v stockfish || echo /usr/games/stockfish)
if [ ! -x "$sf" ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stockfish >/dev/null
  else
    echo "stockfish is missing: sudo apt-get install -y stockfish" >&2
    exit 1
  fi
fi

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Stockfish prints no time for perft: time the process, less its start-up (a depth-1 run).
sf_seconds() { # fen depth
  local t0 t1
  t0=$(now)
  printf 'position fen %s\ngo perft %s\n' "$1" "$2" | "$sf" | grep -q "Nodes searched"
  t1=$(now)
  echo "$t1 - $t0" | bc -l
}

printf '%-10s %5s %12s %14s %14s %7s\n' position depth nodes "dirfill Mn/s" "stockfish Mn/s" ratio
while IFS='|' read -r name fen depth; do
  nodes=$("$dirfill" perft --depth "$depth" --fen "$fen" 2>/dev/null | tail -n 1)
  sf_nodes=$(printf 'position fen %s\ngo perft %s\n' "$fen" "$depth" | "$sf" | awk '/Nodes searched/ {print $3}')
  if [ "$nodes" != "$sf_nodes" ]; then
    echo "node counts differ for $name: dirfill $nodes, stockfish $sf_nodes" >&2
    exit 1
  fi
  # Alternate the two programs run by run, so that load on the machine hits both alike.
  startup=$(for _ in $(seq "$runs"); do sf_seconds "$fen" 1; done | median)
  sf_times=() df_times=()
  for _ in $(seq "$runs"); do
    sf_times+=("$(sf_seconds "$fen" "$depth")")
    df_times+=("$("$dirfill" perft --json --depth "$depth" --fen "$fen" |
                  sed 's/.*"seconds": \([0-9.]*\).*/\1/')")
  done
  sf_s=$(printf '%s\n' "${sf_times[@]}" | median)
  df_s=$(printf '%s\n' "${df_times[@]}" | median)
  df_rate=$(echo "$nodes / $df_s / 1000000" | bc -l)
  sf_rate=$(echo "$nodes / ($sf_s - $startup) / 1000000" | bc -l)
  printf '%-10s %5s %12s %14.1f %14.1f %6.2fx\n' "$name" "$depth" "$nodes" "$df_rate" "$sf_rate" \
    "$(echo "$df_rate / $sf_rate" | bc -l)"
done <<'POSITIONS'
start|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6
kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5
POSITIONS
echo "dirfill backend: $("$dirfill" analyze --json --fen '4k3/8/8/8/8/8/8/4K3 w - - 0 1' | sed 's/.*"backend": "\([a-z0-9]*\)".*/\1/'); CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
