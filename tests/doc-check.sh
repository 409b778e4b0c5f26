#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The API reference is complete: every public function has a doc comment, the README's snippet
# is the example the tests build, docs/api.md's engine-layer fragment and docs/nnue.md's reading
# and stream fragments compile, Doxygen builds the reference from the headers with warnings as
# errors, and every public name of the headers (functions, types, enumerators, macros; not the
# df__/DF__ internals) has an entry in the generated index.
#   usage: tests/doc-check.sh SOURCE_DIR OUTPUT_DIR
set -euo pipefail
root=${1:-.}
out=${2:-build/docs-check}
cd "$root"
missing=$(awk '
  FNR == 1 { prev = ""; in_doc = 0 }
  /^\/\*\*/ { in_doc = 1 }
  /^(DF_API |static inline )[^=]*\(/ && !/^#/ {
    if (!(prev ~ /\*\/[[:space:]]*$/ && doc_end == FNR - 1))
      printf "%s:%d: %s\n", FILENAME, FNR, $0
  }
  { if ($0 ~ /\*\/[[:space:]]*$/ && in_doc) { doc_end = FNR; in_doc = 0 }
    if ($0 !~ /^[[:space:]]*$/) prev = $0 }
' include/dirfill/*.h include/dirfill.h)
if [ -n "$missing" ]; then
  echo "public functions without a /** doc comment:"
  echo "$missing"
  exit 1
fi
# The README's snippet is an example the tests build and run, word for word.
snippet=$(awk '/<!-- examples\/attack_maps.c -->/ {on = 1; next} on && /^```c/ {code = 1; next}
               code && /^```/ {exit} code {print}' README.md)
if [ "$snippet" != "$(cat examples/attack_maps.c)" ]; then
  echo "README.md's snippet differs from examples/attack_maps.c"
  exit 1
fi
# docs/api.md's engine-layer fragment compiles against the headers as they are, wrapped in a
# function over a board: an API change that leaves it behind fails here.
fragment=$(awk '/^The engine layer, as/ {on = 1} on && /^```c/ {code = 1; next}
                code && /^```/ {exit} code {print}' docs/api.md)
[ -n "$fragment" ] || { echo "docs/api.md's engine-layer fragment is missing"; exit 1; }
if ! printf '#include <dirfill.h>\nvoid fragment(df_board b);\nvoid fragment(df_board b)\n{\n%s\n}\n' \
       "$fragment" | ${CC:-cc} -std=c11 -fsyntax-only -Wall -Wextra -Werror -Wno-unused-variable \
       -Wno-unused-but-set-variable -Iinclude -x c - 2>&1; then
  echo "docs/api.md's engine-layer fragment does not compile"
  exit 1
fi
# docs/nnue.md's reading fragment compiles too, as the body of a function returning int: it
# checks what df_nnue_reader_open returns, and an API change that leaves it behind fails here.
fragment=$(awk '/^In C, `<dirfill.h>`/ {on = 1} on && /^```c/ {code = 1; next}
                code && /^```/ {exit} code {print}' docs/nnue.md)
[ -n "$fragment" ] || { echo "docs/nnue.md's reading fragment is missing"; exit 1; }
if ! printf '#include <dirfill.h>\n#include <errno.h>\n#include <stdio.h>\n#include <string.h>\nint fragment(void);\nint fragment(void)\n{\n%s\n}\n' \
       "$fragment" | ${CC:-cc} -std=c11 -fsyntax-only -Wall -Wextra -Werror -Wno-unused-variable \
       -Wno-unused-but-set-variable -Iinclude -x c - 2>&1; then
  echo "docs/nnue.md's reading fragment does not compile"
  exit 1
fi
# And its stream fragment (nnue_stream.h), the same way.
fragment=$(awk '/^dirfill does the same, reproducibly/ {on = 1} on && /^```c/ {code = 1; next}
                code && /^```/ {exit} code {print}' docs/nnue.md)
[ -n "$fragment" ] || { echo "docs/nnue.md's stream fragment is missing"; exit 1; }
if ! printf '#include <dirfill.h>\n#include <stdio.h>\nint fragment(void);\nint fragment(void)\n{\n%s\n}\n' \
       "$fragment" | ${CC:-cc} -std=c11 -fsyntax-only -Wall -Wextra -Werror -Wno-unused-variable \
       -Wno-unused-but-set-variable -Iinclude -x c - 2>&1; then
  echo "docs/nnue.md's stream fragment does not compile"
  exit 1
fi
if ! command -v doxygen >/dev/null; then
  echo "SKIPPED: doxygen is not installed (apt-get install doxygen); the comments are checked"
  exit 77
fi
rm -rf "$out"
mkdir -p "$out"
if ! (cat docs/Doxyfile; echo "OUTPUT_DIRECTORY = $out") | doxygen - >"$out/log" 2>&1; then
  echo "doxygen failed (warnings are errors):"
  cat "$out/log"
  exit 1
fi
# Every public name declared in the headers has an entry in the generated index.
names=$(grep -ohE '\b(df|DF)_[A-Za-z0-9_]+' include/dirfill.h include/dirfill/*.h |
        grep -vE '^(df__|DF__)' | sort -u)
declared=$(for n in $names; do
  grep -qE "(typedef|enum|struct|#define|DF_API|static inline)[^;]*\b$n\b|^ +$n( =|,|$)|^ +$n\b.*/\*\*<|\b$n\(" include/dirfill.h include/dirfill/*.h && echo "$n"
done | sort -u)
index=$(grep -oE '<name>[^<]+</name>' "$out/xml/index.xml" | sed 's/<[^>]*>//g' | sort -u)
absent=$(comm -23 <(echo "$declared") <(echo "$index"))
if [ -n "$absent" ]; then
  echo "public names without a page in the reference:"
  echo "$absent"
  exit 1
fi
# `make docs` works in a fresh tree (no build/ yet), as a new clone has it.
fresh="$out/fresh-clone"
mkdir -p "$fresh"
cp -r include docs Makefile "$fresh"/
make -s -C "$fresh" docs >"$out/make-docs.log" 2>&1 || { echo "make docs fails in a fresh tree:"; cat "$out/make-docs.log"; exit 1; }
[ -f "$fresh/build/docs/html/index.html" ] || { echo "make docs made no build/docs/html/index.html"; exit 1; }
echo "docs: $(echo "$declared" | wc -l) public names, each on a page of the reference (0 warnings); make docs works in a fresh tree"
echo "1 passed, 0 failed"
