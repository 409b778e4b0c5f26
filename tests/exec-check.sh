#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A script the docs tell people to run as a program can be run that way. Every file under
# examples/ and bench/ that
#  - a doc runs as a command (README.md, docs/, python/README.md and the READMEs under examples/
#    and bench/: a command of a shell block, or a code span of a command and its arguments, that
#    starts `examples/x.py ...` or `./bench/y.sh ...`, after any VAR=value and taskset, nice,
#    time or env before it; a code span of a path alone is a mention),
#  - names itself as the command of its own usage line (`usage: bench/y.sh ...`, or an indented
#    line of its docstring starting with its path), or
#  - starts with a shebang line
# has its executable bit in git (on disk outside a git checkout) and a shebang line: else the
# copy-paste answers "Permission denied" or runs the file with the wrong interpreter.
#   usage: tests/exec-check.sh SOURCE_DIR [SCRATCH_DIR]
# With SCRATCH_DIR the check also runs on a small git tree holding each fault (a script a doc
# runs, one its usage line runs and one with a shebang, none executable; an executable one
# without a shebang) and must fail naming each, then pass once they are fixed.
set -euo pipefail
src=$1
scratch=${2:-}

# The files under examples/ and bench/ with their mode (100755 or 100644), from git's index, or
# from the disk when SOURCE_DIR is no git checkout (a release tarball).
files_with_modes() { # dir
  if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$1" ls-files -s -- examples bench | awk '{ print $1, $4 }'
  else
    (cd "$1" && find examples bench -type f 2>/dev/null | sort | while read -r f; do
      if [ -x "$f" ]; then echo "100755 $f"; else echo "100644 $f"; fi
    done)
  fi
}

# The commands of a Markdown file's shell blocks and code spans, one a line.
doc_commands() { # file
  awk '
    /^```/ { if (fence) { fence = 0; inblock = 0 } else { fence = 1; inblock = ($0 ~ /^```(sh|bash|shell|console)?[[:space:]]*$/) }
             next }
    inblock { cmd = cmd $0; if (cmd ~ /\\$/) { sub(/\\$/, " ", cmd); next }
              sub(/(^|[[:space:]])#.*/, "", cmd); print cmd; cmd = ""; next }
    !fence {
      line = $0
      while (match(line, /`[^`]+`/)) {
        span = substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH)
        if (span ~ /[^[:space:]][[:space:]]+[^[:space:]]/) print span   # a path alone is a mention
      }
    }' "$1" |
    sed -e 's/&&/\n/g; s/||/\n/g; s/[;|]/\n/g; s/\$(/\n/g; s/`/\n/g' |
    sed -E -e 's/^[[:space:]]*//' \
      -e 's/^(do|then|else|exec|sudo)[[:space:]]+//' \
      -e ':a; s/^[A-Za-z_][A-Za-z_0-9]*=[^[:space:]]*[[:space:]]+//; ta' \
      -e ':b; s/^(taskset -c [^[:space:]]+|nice( -n [0-9-]+)?|time|env)[[:space:]]+//; tb'
}

# The files a doc runs: the first word of a command, ./ dropped, when it is one of files.
doc_runs() { # dir
  local doc
  for doc in "$1"/README.md "$1"/docs/*.md "$1"/python/README.md; do
    [ -f "$doc" ] && doc_commands "$doc"
  done
  find "$1/examples" "$1/bench" -name '*.md' 2>/dev/null | sort | while read -r doc; do
    doc_commands "$doc"
  done
}

# The files whose own usage line runs them by their path (or their name after "usage:").
usage_runs() { # dir, files...
  local dir=$1 f
  shift
  for f in "$@"; do
    head -n 40 "$dir/$f" | awk -v path="$f" -v base="${f##*/}" '
      { line = $0; sub(/^[#[:space:]]*/, "", line)
        usage = sub(/^[Uu]sage:[[:space:]]*/, "", line)
        split(line, w, /[[:space:]]+/); cmd = w[1]; sub(/^\.\//, "", cmd)
        if (cmd == path || (usage && cmd == base)) { print path; exit } }'
  done
}

check() { # dir
  local dir=$1 failed=0 mode f
  declare -A modes=()
  while read -r mode f; do modes[$f]=$mode; done < <(files_with_modes "$dir")
  declare -A why=()
  for f in "${!modes[@]}"; do
    head -c 2 "$dir/$f" | grep -q '^#!' && why[$f]="it starts with a shebang"
  done
  while read -r f; do
    [ -n "${modes[$f]:-}" ] && why[$f]="its usage line runs it as $f"
  done < <(usage_runs "$dir" "${!modes[@]}")
  local cmd word
  while read -r cmd; do
    word=${cmd%%[[:space:]]*}
    word=${word#./}
    [ -n "$word" ] && [ -n "${modes[$word]:-}" ] && why[$word]="a doc runs it: '$cmd'"
  done < <(doc_runs "$dir")
  for f in $(printf '%s\n' "${!why[@]}" | sort); do
    if [ "${modes[$f]}" != 100755 ]; then
      echo "FAIL: $f is not executable, though ${why[$f]}: git update-index --chmod=+x $f"
      failed=1
    fi
    if ! head -c 2 "$dir/$f" | grep -q '^#!'; then
      echo "FAIL: $f has no shebang line, though ${why[$f]}: add #!/usr/bin/env bash (or python3)"
      failed=1
    fi
  done
  [ $failed = 0 ] && echo "exec-check: ${#why[@]} scripts run as programs, each executable with a shebang"
  return $failed
}

check "$src"
[ -n "$scratch" ] || exit 0

# The check fires: a git tree with one script of each kind left not executable, and one
# executable without a shebang; then the same tree fixed.
command -v git >/dev/null || { echo "SKIPPED the firing check: no git"; exit 0; }
rm -rf "$scratch"
tree=$scratch/tree
log=$scratch/log
mkdir -p "$tree/examples" "$tree/bench" "$tree/docs"
cd "$tree"
git init -q .
printf '#!/usr/bin/env python3\n"""Trains.\n\n    examples/by_usage.py FILE\n"""\n' >examples/by_usage.py
printf '#!/usr/bin/env bash\n# Times.\n' >bench/by_doc.sh
printf '#!/usr/bin/env python3\n"""No usage."""\n' >examples/by_shebang.py
printf 'print("no shebang")\n' >examples/no_shebang.py
printf 'import os\n' >examples/module.py
printf '# Guide\n\n```sh\nREPEAT=3 taskset -c 0 ./bench/by_doc.sh --runs 5\n```\n\nThen `examples/no_shebang.py x` and `python3 examples/module.py`.\n' >docs/guide.md
chmod 644 examples/*.py bench/by_doc.sh
chmod 755 examples/no_shebang.py
git add -A
if (check "$tree") >"$log" 2>&1; then
  echo "FAIL: exec-check passed a tree with scripts not executable"
  cat "$log"
  exit 1
fi
for want in "examples/by_usage.py is not executable, though its usage line" \
  "bench/by_doc.sh is not executable, though a doc runs it" \
  "examples/by_shebang.py is not executable, though it starts with a shebang" \
  "examples/no_shebang.py has no shebang line, though a doc runs it"; do
  grep -q -- "$want" "$log" || { echo "FAIL: exec-check did not say '$want':"; cat "$log"; exit 1; }
done
grep -q 'examples/module.py' "$log" && { echo "FAIL: exec-check flagged a module run by python3:"; cat "$log"; exit 1; }
echo "fires: $(grep -c '^FAIL' "$log") faults named"
chmod 755 examples/by_usage.py bench/by_doc.sh examples/by_shebang.py
printf '#!/usr/bin/env python3\nprint("a shebang")\n' >examples/no_shebang.py
git add -A
check "$tree" >"$log" 2>&1 || { echo "FAIL: exec-check failed the fixed tree:"; cat "$log"; exit 1; }
echo "exec-check: the fixed tree passes"
