#!/usr/bin/env bash
# Every public function (DF_API or static inline in include/) has a /** doc comment right
# above it. Prints the undocumented ones and fails when there are any.
set -euo pipefail
root=${1:-.}
missing=$(awk '
  FNR == 1 { prev = ""; in_doc = 0 }
  /^\/\*\*/ { in_doc = 1 }
  /^(DF_API |static inline )[^=]*\(/ && !/^#/ {
    if (!(prev ~ /\*\/[[:space:]]*$/ && doc_end == FNR - 1))
      printf "%s:%d: %s\n", FILENAME, FNR, $0
  }
  { if ($0 ~ /\*\/[[:space:]]*$/ && in_doc) { doc_end = FNR; in_doc = 0 }
    if ($0 !~ /^[[:space:]]*$/) prev = $0 }
' "$root"/include/dirfill/*.h "$root"/include/dirfill.h)
if [ -n "$missing" ]; then
  echo "public functions without a /** doc comment:"
  echo "$missing"
  exit 1
fi
echo "doc-check: every public function is documented"
echo "1 passed, 0 failed"
