#!/usr/bin/env bash
# Installs dirfill (static, then shared) into a scratch prefix and builds outside consumers
# against it: via find_package, via pkg-config, and as C++17. Checks that only df_* symbols
# are exported and that nothing installed mentions SIMDe or cmocka.
#   usage: tests/packaging.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "packaging: $*" >&2; exit 1; }

for kind in static shared; do
  shared=OFF
  [ "$kind" = shared ] && shared=ON
  prefix="$work/$kind/prefix"
  cmake -S "$src" -B "$work/$kind/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=$shared \
    -DDIRFILL_BUILD_TESTS=OFF -DDIRFILL_BUILD_PROGRAM=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
  cmake --build "$work/$kind/build" -j 2 >/dev/null
  cmake --install "$work/$kind/build" >/dev/null

  if grep -rIil 'simde\|cmocka' "$prefix" >/dev/null; then
    fail "$kind: installed files mention SIMDe or cmocka: $(grep -rIil 'simde\|cmocka' "$prefix")"
  fi
  lib=$(find "$prefix" -name 'libdirfill.so.0' -o -name 'libdirfill.a' | head -n 1)
  [ -n "$lib" ] || fail "$kind: no library installed"
  if [ "$kind" = shared ]; then
    soname=$(objdump -p "$prefix"/lib*/libdirfill.so | awk '/SONAME/ {print $2}')
    [ "$soname" = libdirfill.so.0 ] || fail "SONAME is '$soname', not libdirfill.so.0"
    bad=$(nm -D --defined-only "$prefix"/lib*/libdirfill.so | awk '{print $3}' | grep -v '^df_' || true)
    [ -z "$bad" ] && echo "shared: every exported symbol starts with df_ ($(nm -D --defined-only "$prefix"/lib*/libdirfill.so | wc -l) symbols)" \
      || fail "exported symbols outside df_*: $bad"
  fi

  # find_package
  cmake -S "$src/tests/consumer" -B "$work/$kind/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/$kind/consumer" >/dev/null
  LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:$(dirname "$lib")" "$work/$kind/consumer/consumer"

  # pkg-config
  export PKG_CONFIG_PATH="$(dirname "$lib")/pkgconfig"
  flags=$(pkg-config --cflags --libs dirfill)
  if [ "$kind" = static ]; then
    cc -std=c11 -Wall -Wextra -Werror "$src/tests/consumer/consumer.c" -o "$work/$kind/pc" $flags
  else
    cc -std=c11 -Wall -Wextra -Werror "$src/tests/consumer/consumer.c" -o "$work/$kind/pc" $flags \
      -Wl,-rpath,"$(dirname "$lib")"
  fi
  "$work/$kind/pc"

  # C++17
  if command -v c++ >/dev/null; then
    c++ -std=c++17 -Wall -Wextra -Werror "$src/tests/consumer/consumer.cpp" -o "$work/$kind/cxx" \
      $flags -Wl,-rpath,"$(dirname "$lib")"
    "$work/$kind/cxx" >/dev/null
  else
    echo "SKIPPED C++17 check: no C++ compiler (apt-get install g++)"
  fi
  echo "$kind: find_package, pkg-config and C++17 consumers built and ran"
done
echo "packaging: 1 passed, 0 failed"
