#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs dirfill the ways people do and builds outside consumers against each:
#  - static and shared, the prefix given at install time (cmake --install --prefix P);
#    consumers via find_package, via pkg-config (whose prefix follows the .pc file) and as
#    C++17; a program calling the PGN and NNUE readers linked with exactly
#    `$(pkg-config --cflags --libs dirfill)`, as the README says, and run; only df_* symbols
#    exported; the SONAME; nothing mentions SIMDe or cmocka; every source, the vector
#    backends' too, builds under -Wpedantic;
#  - the shared program: bin/dirfill runs with no LD_LIBRARY_PATH (RUNPATH $ORIGIN/../lib), and
#    neither it nor the build tree's loads from the current directory (no empty RUNPATH element);
#  - vendored by add_subdirectory: nothing of dirfill in the parent's install tree, the
#    parent's build type left alone, dirfill's own code at -O2 when the parent sets no build
#    type, and a parent with strict warning flags and -Werror builds it;
#  - a scalar-only build where SIMDe cannot be found, and the clear error when a vector backend
#    is asked for there.
#   usage: tests/packaging.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "packaging: $*" >&2; exit 1; }
# The library's version and SONAME, as include/dirfill/version.h writes them.
version=$(sed -n 's/^#define DIRFILL_VERSION_STRING "\(.*\)".*/\1/p' "$src/include/dirfill/version.h")
soname=libdirfill.so.${version%.*}
unset LD_LIBRARY_PATH PKG_CONFIG_PATH

# The vector backends are the library's longest files to build and change nothing the static
# and vendored builds check: those two leave them out. The shared build keeps them (its exports
# are the whole library's) and adds -Wpedantic, so every source, the backends' too, still builds
# under the strict flags a vendoring parent may set.
no_vectors="-DDIRFILL_ENABLE_AVX2=OFF -DDIRFILL_ENABLE_AVX512=OFF"
for kind in static shared; do
  shared=OFF
  kind_flags=$no_vectors
  if [ "$kind" = shared ]; then
    shared=ON
    kind_flags=-DCMAKE_C_FLAGS=-Wpedantic
  fi
  prefix="$work/$kind/prefix"
  # Configured with the default prefix; the real one is given at install time. Debug: nothing
  # checked here depends on optimisation, and -O0 builds the library much faster (this test was
  # make test's longest).
  cmake -S "$src" -B "$work/$kind/build" -DCMAKE_BUILD_TYPE=Debug -DBUILD_SHARED_LIBS=$shared \
    -DDIRFILL_BUILD_TESTS=OFF -DDIRFILL_BUILD_PROGRAM=$shared $kind_flags >/dev/null
  cmake --build "$work/$kind/build" -j 2 >/dev/null || fail "$kind: the build fails"
  cmake --install "$work/$kind/build" --prefix "$prefix" >/dev/null

  if grep -rIil 'simde\|cmocka' "$prefix" >/dev/null; then
    fail "$kind: installed files mention SIMDe or cmocka: $(grep -rIil 'simde\|cmocka' "$prefix")"
  fi
  lib=$(find "$prefix" -name "$soname" -o -name 'libdirfill.a' | head -n 1)
  [ -n "$lib" ] || fail "$kind: no library installed"
  libdir=$(dirname "$lib")
  if [ "$kind" = shared ]; then
    got=$(objdump -p "$libdir/libdirfill.so" | awk '/SONAME/ {print $2}')
    [ "$got" = "$soname" ] || fail "SONAME is '$got', not $soname"
    bad=$(nm -D --defined-only "$libdir/libdirfill.so" | awk '{print $3}' | grep -v '^df_' || true)
    [ -z "$bad" ] || fail "exported symbols outside df_*: $bad"
    echo "shared: every exported symbol starts with df_ ($(nm -D --defined-only "$libdir/libdirfill.so" | wc -l) symbols)"
    # The installed program finds its library by itself.
    readelf -d "$prefix/bin/dirfill" | grep -q 'RUNPATH.*\$ORIGIN/../' || fail "bin/dirfill has no \$ORIGIN RUNPATH"
    "$src/tests/runpath-check.sh" "$prefix/bin/dirfill"
    "$src/tests/runpath-check.sh" "$work/$kind/build/dirfill"
    [ "$(env -u LD_LIBRARY_PATH "$prefix/bin/dirfill" perft --depth 3)" = 8902 ] ||
      fail "the installed shared program does not run"
  fi

  # find_package
  cmake -S "$src/tests/consumer" -B "$work/$kind/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/$kind/consumer" >/dev/null
  LD_LIBRARY_PATH="$libdir" "$work/$kind/consumer/consumer"

  # pkg-config: the prefix follows the .pc file, wherever the tree was installed.
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  includedir=$(pkg-config --variable=includedir dirfill)
  [ "$(cd "$includedir" && pwd -P)" = "$(cd "$prefix/include" && pwd -P)" ] ||
    fail "$kind: pkg-config's includedir $includedir is not $prefix/include"
  flags=$(pkg-config --cflags --libs dirfill)
  cc -std=c11 -Wall -Wextra -Werror "$src/tests/consumer/consumer.c" -o "$work/$kind/pc" $flags \
    -Wl,-rpath,"$libdir"
  "$work/$kind/pc"

  # The README's line, exactly: `cc ... $(pkg-config --cflags --libs dirfill)` links a program
  # that calls the PGN and NNUE readers, whose code needs libzstd, zlib, threads and libm. A
  # static library cannot bring them itself, so its dirfill.pc puts them in Libs (a shared one
  # keeps them in Libs.private). The inputs are compressed the ways this build reads.
  readers=$work/$kind/readers
  mkdir -p "$readers"
  printf '[Event "e"]\n[White "w"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n' \
    >"$readers/games.pgn"
  printf 'fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e4\nscore 20\nply 0\nresult 0\ne\n' \
    >"$readers/entries.plain"
  pgn=$readers/games.pgn
  plain=$readers/entries.plain
  private=$(cat "$work/$kind/build/dirfill-private-libs.txt")
  if [[ " $private " == *" zstd "* ]] && command -v zstd >/dev/null; then
    zstd -q "$pgn" && pgn=$pgn.zst
  fi
  if [[ " $private " == *" z "* ]] && command -v gzip >/dev/null; then
    gzip -k "$plain" && plain=$plain.gz
  fi
  rpath=""
  [ "$kind" = shared ] && rpath=-Wl,-rpath,$libdir # to run it; the link needs nothing more
  # shellcheck disable=SC2046 # the flags are words, as a person's shell splits them
  cc -std=c11 -Wall -Wextra -Werror "$src/tests/consumer/readers.c" -o "$readers/readers" \
    $(pkg-config --cflags --libs dirfill) $rpath >"$readers/link.log" 2>&1 || {
    cat "$readers/link.log" >&2
    fail "$kind: a program calling the PGN and NNUE readers does not link with" \
      "\$(pkg-config --cflags --libs dirfill) alone ($(pkg-config --libs dirfill))"
  }
  "$readers/readers" "$pgn" "$plain" || fail "$kind: the readers' program fails on $pgn and $plain"

  # C++17
  if command -v c++ >/dev/null; then
    c++ -std=c++17 -Wall -Wextra -Werror "$src/tests/consumer/consumer.cpp" -o "$work/$kind/cxx" \
      $flags -Wl,-rpath,"$libdir"
    "$work/$kind/cxx" >/dev/null
  else
    echo "SKIPPED C++17 check: no C++ compiler (apt-get install g++)"
  fi
  echo "$kind: installed at install time into a prefix; find_package, pkg-config (the readers with --libs alone) and C++17 consumers built and ran"
  unset PKG_CONFIG_PATH
done

# Vendored: the parent's install tree holds only its own program; its build type stays unset;
# dirfill's own objects are optimised all the same; the parent's strict flags (-Wpedantic and
# -Werror in CMAKE_C_FLAGS) build it.
cmake -S "$src/tests/vendor" -B "$work/vendor/build" -DDIRFILL_SOURCE="$src" $no_vectors \
  -DCMAKE_INSTALL_PREFIX="$work/vendor/prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror" >/dev/null
cmake --build "$work/vendor/build" -j 2 >/dev/null || fail "a parent with -Wpedantic -Werror cannot build dirfill"
cmake --install "$work/vendor/build" >/dev/null
"$work/vendor/prefix/bin/engine" >/dev/null || fail "the vendoring engine does not run"
extra=$(cd "$work/vendor/prefix" && find . -type f ! -path ./bin/engine)
[ -z "$extra" ] || fail "vendored dirfill installed into the parent's tree: $extra"
build_type=$(grep '^CMAKE_BUILD_TYPE:' "$work/vendor/build/CMakeCache.txt" | cut -d= -f2)
[ -z "$build_type" ] || fail "vendored dirfill set the parent's CMAKE_BUILD_TYPE to '$build_type'"
grep -q '"command":.*-O2.*src/chess/fen.c' "$work/vendor/build/compile_commands.json" ||
  fail "vendored without a build type, dirfill's sources are not optimised"
grep -q '"command":.*-O2.*engine.c' "$work/vendor/build/compile_commands.json" &&
  fail "dirfill's -O2 leaked into the parent's own target"
grep -q -- '-Werror' <(grep 'src/chess/fen.c' "$work/vendor/build/compile_commands.json" | sed 's/-Wall -Wextra -Wpedantic -Werror//') &&
  fail "vendored dirfill adds -Werror of its own"
echo "vendored: nothing of dirfill installed, build type left alone, dirfill at -O2, strict parent flags pass"

# Without SIMDe (hidden from find_path): the scalar-only build the error message recommends
# configures, builds and serves a consumer; asking for a vector backend there fails clearly.
nosimde="-DCMAKE_IGNORE_PATH=/usr/include;/usr/local/include -DDIRFILL_BUILD_TESTS=OFF -DDIRFILL_BUILD_PROGRAM=OFF"
cmake -S "$src" -B "$work/nosimde/build" $nosimde -DCMAKE_BUILD_TYPE=Debug \
  -DDIRFILL_ENABLE_AVX2=OFF -DDIRFILL_ENABLE_AVX512=OFF \
  -DCMAKE_INSTALL_PREFIX="$work/nosimde/prefix" >/dev/null || fail "a scalar-only build needs SIMDe"
cmake --build "$work/nosimde/build" -j 2 >/dev/null || fail "the scalar-only build fails"
cmake --install "$work/nosimde/build" >/dev/null
cmake -S "$src/tests/consumer" -B "$work/nosimde/consumer" -DCMAKE_PREFIX_PATH="$work/nosimde/prefix" >/dev/null
cmake --build "$work/nosimde/consumer" >/dev/null
"$work/nosimde/consumer/consumer" >/dev/null || fail "the scalar-only library does not serve a consumer"
if cmake -S "$src" -B "$work/nosimde/vector" $nosimde >"$work/nosimde/vector.log" 2>&1; then
  fail "SIMDe hidden, yet the vector backends configured"
fi
grep -q 'SIMDe not found' "$work/nosimde/vector.log" || fail "no clear message without SIMDe"
echo "no SIMDe: the scalar-only build works; the vector backends ask for libsimde-dev"
echo "packaging: 1 passed, 0 failed"
