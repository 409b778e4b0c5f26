#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's start-up commands work on a bare Debian 12 (a debootstrap minbase root, a
# minimal container image), where `make` itself is missing. In the Quick start and
# in the Python section, every program a command runs must be on such a root already, or be
# installed by an earlier root `apt-get install` line of that section, or come with an earlier
# `make` target (the Makefile installs its BUILD_DEPS or TEST_DEPS itself), or be a path the
# commands built. The Quick start's text must give the same install line with sudo for users
# who are not root, and the package lists it names must be the Makefile's BUILD_DEPS, what
# PYTHON_DEPS adds to it, and together TEST_DEPS; the Python guide's by-hand install must install
# PYTHON_DEPS: so the README, the guide and the Makefile stay in step.
#   usage: tests/quickstart-check.sh SOURCE_DIR [SCRATCH_DIR]
# SOURCE_DIR holds README.md and Makefile. With SCRATCH_DIR the check also runs on copies
# broken on purpose (the prerequisite line removed, a clone without git, lists out of step)
# and must fail on each, naming the fault: a guard nobody has seen fire guards nothing.
set -euo pipefail
src=$1
scratch=${2:-}

# On a minbase root already (Essential and required packages, checked with `debootstrap
# --variant=minbase bookworm`), shell builtins included.
on_minbase=" cd export set unset source . exec echo printf test [ true false read umask ulimit
  apt apt-get apt-cache dpkg dpkg-query tar gzip gunzip zcat sed grep awk mawk cat cp mv rm
  mkdir rmdir ls ln chmod chown id nproc uname date sleep head tail tee wc sort uniq find xargs
  env perl mktemp touch tr cut which su du df "
# The Debian package of each program a start-up line may run that a minbase root lacks. A
# program in neither list fails the check until someone says where it comes from.
package_of() {
  case $1 in
  make | git | sudo | curl | wget | cmake | gcc | unzip | zstd | doxygen | clang) echo "$1" ;;
  python3) echo python3-venv ;; # what `python3 -m venv` needs; it depends on python3
  ctest | cpack) echo cmake ;;
  cc) echo gcc ;;
  c++ | g++) echo g++ ;;
  pip | pip3) echo python3-pip ;;
  xz) echo xz-utils ;;
  ninja) echo ninja-build ;;
  *) return 1 ;;
  esac
}

# The words of a Makefile variable, $(OTHER) references expanded (continuation lines joined).
make_var() { # makefile name
  awk -v want="$2" '
    { line = line $0 }
    /\\$/ { sub(/\\$/, " ", line); next }
    { if (match(line, /^[A-Za-z_]+[ \t]*[:?]?=/)) {
        name = substr(line, 1, RLENGTH); sub(/[ \t]*[:?]?=$/, "", name)
        val[name] = substr(line, RLENGTH + 1)
      }
      line = "" }
    END {
      v = val[want]
      while (match(v, /\$\([A-Za-z_]+\)/)) {
        ref = substr(v, RSTART + 2, RLENGTH - 3)
        v = substr(v, 1, RSTART - 1) val[ref] substr(v, RSTART + RLENGTH)
      }
      print v
    }' "$1" | tr -s ' \t' '\n' | sed '/^$/d'
}

# The lines of a README section, from its "## TITLE" heading to the next "## " heading.
section() { # readme title (empty: the whole file)
  if [ -z "$2" ]; then cat "$1"; return; fi
  awk -v t="## $2" 'index($0, t) == 1 { on = 1; next } on && /^## / { exit } on' "$1"
}

# The shell lines of a section's ```sh blocks, continuations joined, comments dropped.
code_lines() {
  awk '/^```/ { if (fence) { fence = 0; inblock = 0 } else { fence = 1; inblock = ($0 ~ /^```(sh|bash|shell)?$/) }
                next }
       inblock { line = line $0; if (line ~ /\\$/) { sub(/\\$/, " ", line); next }
                 sub(/(^|[ \t])#.*/, "", line); gsub(/[ \t]+/, " ", line); sub(/^ /, "", line)
                 sub(/ $/, "", line); if (line != "") print line; line = "" }'
}

# The section's text outside code blocks, on one line (code spans may wrap).
prose() {
  awk '/^```/ { inblock = !inblock; next } !inblock' | tr '\n' ' '
}

# A list of words on one line, for messages.
words() { xargs <<<"$1"; }

# The packages of an apt-get install command ("apt-get [options] install [options] PKG...").
install_packages() {
  local seen=0 w
  for w in "$@"; do
    if [ $seen = 1 ]; then
      case $w in -*) ;; *) echo "$w" ;; esac
    elif [ "$w" = install ]; then seen=1; fi
  done
}

check() { # dir
  local makefile=$1/Makefile failed=0 where file title
  local build_deps python_deps test_deps python_own
  build_deps=$(make_var "$makefile" BUILD_DEPS | sort -u)
  python_deps=$(make_var "$makefile" PYTHON_DEPS | sort -u)
  test_deps=$(make_var "$makefile" TEST_DEPS | sort -u)
  if [ -z "$build_deps" ] || [ -z "$python_deps" ] || [ -z "$test_deps" ]; then
    echo "FAIL: no BUILD_DEPS, PYTHON_DEPS or TEST_DEPS in $makefile"
    return 1
  fi
  python_own=$(comm -13 <(echo "$build_deps") <(echo "$python_deps"))

  # Where a person starts: the README's Quick start and Python section, the Python guide's
  # Installing, the Python package's README (file:section, no section for the whole file).
  for where in "README.md:Quick start" "README.md:Python" "docs/python.md:Installing" "python/README.md:"; do
    file=${where%%:*}
    title=${where#*:}
    local text
    text=$(section "$1/$file" "$title")
    [ -n "$text" ] || { echo "FAIL: $file has no '## $title' section"; failed=1; continue; }
    local at="$file, ${title:-the whole file}"
    # Packages there by the time each line runs: those installed by root lines so far, and
    # those of the make targets run so far.
    local have=" " root_pkgs="" line cmd
    while IFS= read -r line; do
      # One simple command at a time: split at && || ; and |.
      while IFS= read -r cmd; do
        local -a w
        read -r -a w <<<"$cmd"
        # Leading VAR=value assignments are no programs.
        while [ ${#w[@]} -gt 0 ] && [[ ${w[0]} =~ ^[A-Za-z_][A-Za-z_0-9]*= ]]; do w=("${w[@]:1}"); done
        [ ${#w[@]} -gt 0 ] || continue
        local prog=${w[0]} pkg
        # The system's own programs by their path (/usr/bin/python3) need their package too.
        [[ $prog == /usr/bin/* || $prog == /bin/* ]] && prog=${prog##*/}
        if [[ $prog == */* ]]; then
          continue # a path: something the commands built (build/venv/bin/python, build/release/...)
        elif [[ $on_minbase == *" $prog "* ]]; then
          if [ "$prog" = apt-get ]; then
            local p
            for p in $(install_packages "${w[@]}"); do
              have="$have$p "
              root_pkgs="$root_pkgs$p "
            done
          fi
        elif pkg=$(package_of "$prog"); then
          if [[ $have != *" $pkg "* ]]; then
            if [ "$prog" = sudo ]; then
              echo "FAIL: $at: '$line' runs sudo, which a bare root lacks: the block" \
                "gives the root line (apt-get ...), the text the sudo one"
            else
              echo "FAIL: $at: '$line' runs $prog before any line installs its" \
                "Debian package $pkg: put 'apt-get update && apt-get install -y $pkg' (as" \
                "root, else with sudo) before it"
            fi
            failed=1
          fi
          if [ "$prog" = make ] && [ ${#w[@]} -gt 1 ]; then
            # The target installs its own packages (the Makefile's `ensure`).
            case ${w[1]} in
            python) have="$have$(words "$python_deps") " ;;
            test | test-* | python-*) have="$have$(words "$test_deps") " ;;
            *) have="$have$(words "$build_deps") " ;;
            esac
          fi
        else
          echo "FAIL: $at: '$line' runs $prog, which this check does not know:" \
            "add it to on_minbase or package_of in tests/quickstart-check.sh"
          failed=1
        fi
      done < <(sed -e 's/&&/\n/g; s/||/\n/g; s/[;|]/\n/g' <<<"$line")
    done < <(code_lines <<<"$text")

    # The Python guide's by-hand install installs what make python does.
    if [ "$file" = docs/python.md ]; then
      local got_python
      got_python=$(tr ' ' '\n' <<<"$root_pkgs" | sed '/^$/d' | sort -u)
      if [ "$got_python" != "$python_deps" ]; then
        echo "FAIL: $at: its apt-get lines install not the Makefile's PYTHON_DEPS:" \
          "missing '$(comm -13 <(echo "$got_python") <(echo "$python_deps") | xargs)'," \
          "extra '$(comm -23 <(echo "$got_python") <(echo "$python_deps") | xargs)'"
        failed=1
      fi
    fi

    [ "$title" = "Quick start" ] || continue
    local spans
    # shellcheck disable=SC2016 # backquotes: Markdown code spans, not command substitution
    spans=$(prose <<<"$text" | grep -o '`[^`]*`' | tr -d '`')
    # The sudo line for users who are not root installs what the root line installs.
    local sudo_pkgs want got
    sudo_pkgs=$(grep '^sudo .*apt-get .*install' <<<"$spans" | sed 's/^.*apt-get[^&;|]*install//' |
      tr ' ' '\n' | grep -v '^-' | sed '/^$/d' | sort -u || true)
    want=$(tr ' ' '\n' <<<"$root_pkgs" | sed '/^$/d' | sort -u)
    if [ -z "$want" ]; then
      echo "FAIL: README.md, Quick start: no root 'apt-get install' line in its commands"
      failed=1
    elif [ "$sudo_pkgs" != "$want" ]; then
      echo "FAIL: README.md, Quick start: the text's sudo line installs '$(words "$sudo_pkgs")'," \
        "the root line '$(words "$want")': give the same packages"
      failed=1
    fi
    # The package lists in the text (code spans of three or more package names) are the
    # Makefile's: one is BUILD_DEPS, one what PYTHON_DEPS adds to it, and together TEST_DEPS.
    local lists="" one_is_build=0 one_is_python=0 span
    while IFS= read -r span; do
      [[ $span =~ ^[a-z0-9][a-z0-9+.-]*([[:space:]]+[a-z0-9][a-z0-9+.-]*){2,}$ ]] || continue
      got=$(tr -s ' ' '\n' <<<"$span" | sed '/^$/d' | sort -u)
      [ "$got" = "$build_deps" ] && one_is_build=1
      [ "$got" = "$python_own" ] && one_is_python=1
      lists="$lists$got"$'\n'
    done <<<"$spans"
    if [ $one_is_build = 0 ]; then
      echo "FAIL: README.md, Quick start: no package list of the text is the Makefile's BUILD_DEPS" \
        "'$(words "$build_deps")'"
      failed=1
    fi
    if [ $one_is_python = 0 ]; then
      echo "FAIL: README.md, Quick start: no package list of the text is what the Makefile's" \
        "PYTHON_DEPS adds to BUILD_DEPS '$(words "$python_own")'"
      failed=1
    fi
    got=$(sed '/^$/d' <<<"$lists" | sort -u)
    if [ "$got" != "$test_deps" ]; then
      echo "FAIL: README.md, Quick start: its package lists are not the Makefile's TEST_DEPS:" \
        "missing '$(comm -13 <(echo "$got") <(echo "$test_deps") | xargs)'," \
        "extra '$(comm -23 <(echo "$got") <(echo "$test_deps") | xargs)'"
      failed=1
    fi
  done
  return $failed
}

check "$src"
echo "quickstart: the README's start-up lines name their prerequisites; lists match the Makefile"
[ -n "$scratch" ] || exit 0

# The check fires: each copy holds one fault, and the check must fail naming it.
rm -rf "$scratch"
expect_fail() { # name, expected message, sed scripts for README.md, [Makefile, python/README.md, docs/python.md]
  local name=$1 want=$2 dir=$scratch/$1
  mkdir -p "$dir"
  mkdir -p "$dir/python" "$dir/docs"
  sed -e "$3" "$src/README.md" >"$dir/README.md"
  sed -e "${4:-}" "$src/Makefile" >"$dir/Makefile"
  sed -e "${5:-}" "$src/python/README.md" >"$dir/python/README.md"
  sed -e "${6:-}" "$src/docs/python.md" >"$dir/docs/python.md"
  if cmp -s "$dir/README.md" "$src/README.md" && cmp -s "$dir/Makefile" "$src/Makefile" &&
    cmp -s "$dir/python/README.md" "$src/python/README.md" &&
    cmp -s "$dir/docs/python.md" "$src/docs/python.md"; then
    echo "FAIL: $name: the fault could not be made (did the README change?)"
    exit 1
  fi
  if (check "$dir") >"$dir/log" 2>&1; then
    echo "FAIL: $name: the check passed a broken README"
    exit 1
  fi
  grep -q -- "$want" "$dir/log" || {
    echo "FAIL: $name did not say '$want':"
    cat "$dir/log"
    exit 1
  }
  echo "fires: $name"
}
# Sed addresses: the Quick start's lines only, from its heading to the next section.
qs='/^## Quick start/,/^## /'
expect_fail no-prerequisite "Quick start: 'make bench' runs make before any line installs its Debian package make" \
  "$qs{/^apt-get update && apt-get install -y make\$/d}"
expect_fail sudo-in-block "runs sudo, which a bare root lacks" "$qs{s/^apt-get update && apt-get install/sudo apt-get update \\&\\& sudo apt-get install/}"
expect_fail clone-without-git "runs git before any line installs its Debian package git" \
  "$qs{/^apt-get update && apt-get install -y make\$/a\\
git clone https://example.org/dirfill.git && cd dirfill
}"
expect_fail unknown-program "runs frobnicate, which this check does not know" \
  "$qs{/^make bench/i\\
frobnicate --all
}"
expect_fail sudo-line-out-of-step "the text's sudo line installs" \
  "$qs{s/sudo apt-get install -y make/sudo apt-get install -y/}"
expect_fail python-without-make "README.md, Python: 'make python' runs make before any line installs" \
  '/^## Python/,/^## /{/^apt-get update && apt-get install -y make /d}'
# shellcheck disable=SC2016 # $(PYTHON_DEPS): the Makefile's text, matched as it is
expect_fail makefile-adds-package "missing 'libfoo-dev'" "" \
  's/^TEST_DEPS   := $(PYTHON_DEPS) /&libfoo-dev /'
# shellcheck disable=SC2016 # $(BUILD_DEPS): the Makefile's text, matched as it is
expect_fail python-deps-out-of-step "no package list of the text is what the Makefile's PYTHON_DEPS adds" "" \
  's/^PYTHON_DEPS := $(BUILD_DEPS) /&libfoo-dev /'
expect_fail python-guide-drops-package "docs/python.md, Installing: its apt-get lines install not the Makefile's PYTHON_DEPS: missing 'python3-numpy'" \
  "" "" "" '/^## Installing/,/^## /{s/ python3-numpy$//}'
expect_fail readme-drops-package "no package list of the text is the Makefile's BUILD_DEPS" \
  "$qs{s/libsimde-dev//}"
expect_fail python-readme-without-make "python/README.md, the whole file: 'make python' runs make" \
  "" "" '/^apt-get update && apt-get install -y make /d'
echo "quickstart: 11 faults fired"
