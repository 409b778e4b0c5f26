#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The project's own checks fire: each is run on a scratch tree holding exactly the fault it
# guards against, and must fail naming it.
#   usage: tests/guards-fire.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
expect_fail() { # name, expected message, command...
  local name=$1 want=$2
  shift 2
  if "$@" >"$work/$name.log" 2>&1; then echo "FAIL: $name passed a faulty tree"; exit 1; fi
  grep -q -- "$want" "$work/$name.log" || { echo "FAIL: $name did not say '$want':"; cat "$work/$name.log"; exit 1; }
  echo "fires: $name"
}

# license-check: a source without its SPDX line.
mkdir -p "$work/license/src"
cp "$src/LICENSE" "$work/license/"
printf 'int f(void) { return 0; }\n' >"$work/license/src/unlabelled.c"
expect_fail license "src/unlabelled.c" "$src/tests/license-check.sh" "$work/license"

# header-check: a public header with a sign conversion a consumer's -Wsign-conversion rejects.
mkdir -p "$work/headers/include/dirfill"
printf '#include <stdint.h>\nstatic inline int df_bad(uint32_t x) { return x; }\n' \
  >"$work/headers/include/dirfill/bad.h"
printf '#include "dirfill/bad.h"\n' >"$work/headers/include/dirfill.h"
expect_fail headers "FAIL: dirfill.h" "$src/tests/header-check.sh" "$work/headers" "$work/headers-out"

# runpath-check: a program whose RUNPATH holds an empty element, as CMake's padding leaves one.
mkdir -p "$work/runpath"
printf 'int main(void) { return 0; }\n' | cc -x c - -o "$work/runpath/program" -Wl,-rpath,/usr/lib::
expect_fail runpath "has an empty element" "$src/tests/runpath-check.sh" "$work/runpath/program"

# doc-check: the README's engine-layer fragment calling df_perft with its arguments in the old
# order.
mkdir -p "$work/docs/examples"
cp -r "$src/include" "$work/docs/"
cp "$src/examples/attack_maps.c" "$work/docs/examples/"
sed 's/^df_perft(&nodes, &b, 5);/df_perft(\&b, 5, \&nodes);/' "$src/README.md" >"$work/docs/README.md"
! cmp -s "$src/README.md" "$work/docs/README.md" || { echo "FAIL: the README's df_perft line moved"; exit 1; }
expect_fail docs "engine-layer fragment does not compile" "$src/tests/doc-check.sh" "$work/docs" \
  "$work/docs-out"

# make fuzz-report (what a failed test-fuzz prints last, for a CI log read from its end): the
# input a fuzzer left, in base64.
mkdir -p "$work/fuzz/build/asan-clang/tests/artifacts"
printf '1. e4 {\n' >"$work/fuzz/build/asan-clang/tests/artifacts/pgn-crash-0"
make -s -C "$work/fuzz" -f "$src/Makefile" fuzz-report >"$work/fuzz.log" 2>/dev/null
grep -q "^$(printf '1. e4 {\n' | base64 -w 0)\$" "$work/fuzz.log" ||
  { echo "FAIL: fuzz-report did not print the input:"; cat "$work/fuzz.log"; exit 1; }
echo "fires: fuzz-report"
echo "guards: 4 fired"
