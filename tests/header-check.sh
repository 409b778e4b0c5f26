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
# compile LANG COMPILER HEADER: the header alone in a translation unit.
compile() {
  local tu="$work/$(echo "$3" | tr / _).c"
  printf '#include <%s>\nint main(void) { return 0; }\n' "$3" >"$tu"
  if [ "$1" = c ]; then
    "$2" -std=c11 $flags -c "$tu" -o "$work/out.o" || { echo "FAIL: $3 with $2 -std=c11"; exit 1; }
  else
    "$2" -x c++ -std=c++17 $flags -c "$tu" -o "$work/out.o" ||
      { echo "FAIL: $3 with $2 -std=c++17"; exit 1; }
  fi
}
# Every header alone (self-contained) with one compiler per language, crossed: gcc as C11 and
# clang++ (else g++) as C++17; dirfill.h, which includes them all, with every compiler in both
# languages (a warning one compiler gives in any header). Four compilers on every header alone
# said nothing more and took a minute of make test.
cxx_of() { [ "$1" = gcc ] && echo g++ || echo clang++; }
c_alone=${compilers[0]}
cxx_alone=$(cxx_of "${compilers[${#compilers[@]}-1]}")
command -v "$cxx_alone" >/dev/null || cxx_alone=""
for h in $headers; do
  compile c "$c_alone" "$h"
  [ -z "$cxx_alone" ] || compile c++ "$cxx_alone" "$h"
done
for cc in "${compilers[@]}"; do
  compile c "$cc" dirfill.h
  if command -v "$(cxx_of "$cc")" >/dev/null; then compile c++ "$(cxx_of "$cc")" dirfill.h; fi
done
echo "headers: $(echo "$headers" | wc -w) public headers, each alone with $c_alone (C11)${cxx_alone:+ and $cxx_alone (C++17)}, dirfill.h with ${compilers[*]} as C11 and C++17, warning-free ($flags)"
