#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every public header compiles alone, warning-free, in consumer code under strict flags: gcc
# and clang, as C11 and as C++17 (a consumer's flags are not dirfill's to choose).
#   usage: tests/header-check.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
flags="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror -I$src/include"
compilers=()
for cc in gcc clang; do
  if command -v "$cc" >/dev/null; then compilers+=("$cc"); else echo "SKIPPED $cc: not installed"; fi
done
[ ${#compilers[@]} -gt 0 ] || { echo "no compiler"; exit 1; }
headers=$(cd "$src/include" && ls dirfill.h dirfill/*.h)
checked=0
for h in $headers; do
  tu="$work/$(echo "$h" | tr / _).c"
  printf '#include <%s>\nint main(void) { return 0; }\n' "$h" >"$tu"
  for cc in "${compilers[@]}"; do
    cxx=$([ "$cc" = gcc ] && echo g++ || echo clang++)
    "$cc" -std=c11 $flags -c "$tu" -o "$work/out.o" || { echo "FAIL: $h with $cc -std=c11"; exit 1; }
    if command -v "$cxx" >/dev/null; then
      "$cxx" -x c++ -std=c++17 $flags -c "$tu" -o "$work/out.o" ||
        { echo "FAIL: $h with $cxx -std=c++17"; exit 1; }
    fi
    checked=$((checked + 1))
  done
done
echo "headers: $(echo "$headers" | wc -w) public headers, each alone, warning-free with ${compilers[*]} as C11 and C++17 ($flags)"
