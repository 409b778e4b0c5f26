#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every source, header, script and build file of the project says its license (MIT, the
# LICENSE file) in an SPDX line near its top; generated and test data files excepted.
#   usage: tests/license-check.sh SOURCE_DIR
set -euo pipefail
cd "$1"
[ -f LICENSE ] && grep -q '^MIT License' LICENSE || { echo "no MIT LICENSE file"; exit 1; }
missing=$(find . \( -path ./build -o -path ./.git -o -path '*/fuzz/seeds-*' -o -path ./tests/data \
                    -o -path './python/build' -o -name '*.egg-info' -o -path '*/__pycache__' \) -prune -o \
               -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.py' -o -name '*.sh' \
                          -o -name CMakeLists.txt -o -name Makefile -o -name '*.in' -o -name '*.toml' \) \
               -print0 |
          # One awk over every file (a head and a grep a file were slow on a loaded machine).
          xargs -0 awk 'BEGIN { for (i = 1; i < ARGC; i++) seen[ARGV[i]] = 0 }
                        FNR <= 5 && /SPDX-License-Identifier: MIT/ { seen[FILENAME] = 1 }
                        END { for (f in seen) if (!seen[f]) print f }')
if [ -n "$missing" ]; then
  echo "files without an SPDX-License-Identifier: MIT line:"
  echo "$missing"
  exit 1
fi
echo "license: every source carries SPDX-License-Identifier: MIT"
