#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A program's RUNPATH (and RPATH) has no empty element: the loader reads an empty one as the
# current directory, so the program would load a libz.so.1 or libzstd.so.1 lying where it is
# run (CMake pads an empty build-tree RUNPATH with ':' to leave room for the install one).
#   usage: tests/runpath-check.sh PROGRAM
set -euo pipefail
paths=$(readelf -d "$1" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*: \[\(.*\)\]$/\2/p')
while IFS= read -r path; do
  [ -n "$path" ] || continue
  case ":$path:" in
    *::*) echo "FAIL: $1: RUNPATH '$path' has an empty element (the current directory)"; exit 1 ;;
  esac
done <<<"$paths"
echo "runpath: $1: ${paths:-none}"
