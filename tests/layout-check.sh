#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The source tree keeps the shape docs/architecture.md describes: every folder of src/ is named
# there; every intrinsic (and every vector or ISA header) lives in src/scalar, src/avx2 or
# src/avx512, templates (*_tpl.h) aside; src/'s top holds dispatch and the public glue only (at
# most 8 files); every .c file of app/ and src/nnue/ is named there; the C files of src/, app/
# and cmdline/ make no circle and no arrow to a layer below (tests/file-graph.py); the Python
# extension's module file (_module.c) is imported by no other file: the helpers they share are
# _common.c's.
#   usage: tests/layout-check.sh SOURCE_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$1"
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

for dir in $(find src -mindepth 1 -type d | sort); do
  grep -q "\`$dir/\`" docs/architecture.md || fail "docs/architecture.md does not name $dir/"
done

for file in $(find app src/nnue -name '*.c' | sort); do
  grep -q "\`$(basename "$file")\`" docs/architecture.md || fail "docs/architecture.md does not name $file"
done

graph=$(python3 "$here/file-graph.py" . 2>&1) || fail "$graph"

intrinsics='_mm(256|512)?_[a-z]|simde_mm|__builtin_ia32_|[a-z]*mmintrin\.h|simde/x86/'
outside=$(grep -rlE "$intrinsics" src --include='*.c' --include='*.h' |
  grep -vE '^src/(scalar|avx2|avx512)/|_tpl\.h$' || true)
[ -z "$outside" ] || fail "intrinsics outside src/scalar, src/avx2 and src/avx512:" $outside

top=$(find src -maxdepth 1 -type f | wc -l)
[ "$top" -le 8 ] || fail "src/ holds $top files at its top (at most 8: dispatch and the public glue)"

# A function of _module.c that another file of the extension declares or calls: the module
# would be imported back by the files it imports.
exported=$(grep -oE '^[A-Za-z_][A-Za-z_0-9 \*]*\b(dfpy_[a-z_0-9]+)\(' python/dirfill/_module.c |
  grep -oE 'dfpy_[a-z_0-9]+' || true)
for f in $exported; do
  fail "python/dirfill/_module.c defines $f, which other files would import back"
done

[ $failed = 0 ] || exit 1
echo "layout: $(find src -mindepth 1 -type d | wc -l) folders of src/ and the files of app/ and" \
  "src/nnue/ named in docs/architecture.md; intrinsics only in the ISA folders; $top files at" \
  "src/'s top; _module.c imported by none; $graph"
