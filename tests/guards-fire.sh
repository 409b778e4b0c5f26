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

# doc-check: docs/api.md's engine-layer fragment calling df_perft with its arguments in the old
# order.
mkdir -p "$work/docs/examples" "$work/docs/docs"
cp -r "$src/include" "$work/docs/"
cp "$src/examples/attack_maps.c" "$work/docs/examples/"
cp "$src/README.md" "$work/docs/"
sed 's/^df_perft(&nodes, &b, 5);/df_perft(\&b, 5, \&nodes);/' "$src/docs/api.md" >"$work/docs/docs/api.md"
! cmp -s "$src/docs/api.md" "$work/docs/docs/api.md" || { echo "FAIL: docs/api.md's df_perft line moved"; exit 1; }
expect_fail docs "engine-layer fragment does not compile" "$src/tests/doc-check.sh" "$work/docs" \
  "$work/docs-out"

# layout-check: each rule on a copy of the tree that breaks it alone.
layout_copy() { # name
  mkdir -p "$work/layout/$1/python/dirfill"
  cp -r "$src/src" "$src/app" "$src/cmdline" "$src/docs" "$work/layout/$1/"
  cp "$src/python/dirfill/_module.c" "$work/layout/$1/python/dirfill/"
}
layout_copy unnamed
mkdir "$work/layout/unnamed/src/misc"
expect_fail layout-unnamed "does not name src/misc/" "$src/tests/layout-check.sh" "$work/layout/unnamed"
layout_copy intrinsic
printf '#include <immintrin.h>\n' >>"$work/layout/intrinsic/src/chess/board.c"
expect_fail layout-intrinsic "src/chess/board.c" "$src/tests/layout-check.sh" "$work/layout/intrinsic"
layout_copy crowded
for i in 1 2 3; do : >"$work/layout/crowded/src/extra$i.c"; done
expect_fail layout-top "at most 8" "$src/tests/layout-check.sh" "$work/layout/crowded"
layout_copy unnamed-file
printf '/* SPDX-License-Identifier: MIT */\n' >"$work/layout/unnamed-file/app/extra.c"
expect_fail layout-unnamed-file "does not name app/extra.c" "$src/tests/layout-check.sh" \
  "$work/layout/unnamed-file"
# A circle: the PGN tag lookup calling back into the reader.
layout_copy circle
printf 'void df__pgn_back(void) { df_pgn_reader_new(); }\n' >>"$work/layout/circle/src/pgn/tags.c"
expect_fail layout-circle "src/pgn/tags.c uses df_pgn_reader_new of src/pgn/reader.c" \
  "$src/tests/layout-check.sh" "$work/layout/circle"
# An arrow to a layer below: the board code reading PGN.
layout_copy downward
printf 'void df__board_pgn(void) { df_pgn_reader_new(); }\n' >>"$work/layout/downward/src/chess/board.c"
expect_fail layout-downward "src/chess/board.c (chess) uses df_pgn_reader_new of src/pgn/reader.c" \
  "$src/tests/layout-check.sh" "$work/layout/downward"
layout_copy module
printf 'int dfpy_shared_helper(void) { return 0; }\n' >>"$work/layout/module/python/dirfill/_module.c"
expect_fail layout-module "defines dfpy_shared_helper" "$src/tests/layout-check.sh" "$work/layout/module"

# make format-check: a source laid out otherwise than .clang-format says, and the same tree
# passing once it is formatted.
mkdir -p "$work/format/src"
cp "$src/.clang-format" "$work/format/"
printf '/* SPDX-License-Identifier: MIT */\nint  f(void){return 0;}\n' >"$work/format/src/unformatted.c"
expect_fail format "src/unformatted.c" make -s -C "$work/format" -f "$src/Makefile" format-check
clang-format -i "$work/format/src/unformatted.c"
make -s -C "$work/format" -f "$src/Makefile" format-check >"$work/format-ok.log" 2>&1 ||
  { echo "FAIL: format-check failed a formatted tree:"; cat "$work/format-ok.log"; exit 1; }

# make fuzz-report (what a failed test-fuzz prints last, for a CI log read from its end): the
# input a fuzzer left, in base64.
mkdir -p "$work/fuzz/build/asan-clang/tests/artifacts"
printf '1. e4 {\n' >"$work/fuzz/build/asan-clang/tests/artifacts/pgn-crash-0"
make -s -C "$work/fuzz" -f "$src/Makefile" fuzz-report >"$work/fuzz.log" 2>/dev/null
grep -q "^$(printf '1. e4 {\n' | base64 -w 0)\$" "$work/fuzz.log" ||
  { echo "FAIL: fuzz-report did not print the input:"; cat "$work/fuzz.log"; exit 1; }
echo "fires: fuzz-report"
echo "guards: 13 fired"
