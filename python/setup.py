# SPDX-License-Identifier: MIT
"""Builds the C extension over dirfill's static library, which CMake builds from the checkout
this directory belongs to (python/ inside the dirfill repository). Offline:
    python3 -m pip install --no-build-isolation ./python
"""
import os
import subprocess

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class build_with_library(build_ext):
    """Builds libdirfill.a (position independent, no tests, no program), then the extension."""

    def run(self):
        if not os.path.exists(os.path.join(ROOT, "include", "dirfill.h")):
            raise RuntimeError("dirfill's sources are not next to python/: build from a checkout "
                               "(pip >= 21.3 builds a local directory in place)")
        # DIRFILL_LIBRARY_BUILD: a CMake build tree whose static library (position independent)
        # is linked as it is, not built again: make python-asan links the asan preset's, which
        # the C tests use too.
        build = os.environ.get("DIRFILL_LIBRARY_BUILD")
        if not build:
            build = os.path.join(os.path.abspath(self.build_temp), "libdirfill")
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
                                   "-DBUILD_SHARED_LIBS=OFF", "-DDIRFILL_BUILD_TESTS=OFF",
                                   "-DDIRFILL_BUILD_PROGRAM=OFF", "-DDIRFILL_INSTALL=OFF"])
            subprocess.check_call(["cmake", "--build", build, "--target", "dirfill", "-j",
                                   str(os.cpu_count() or 2)])
        # The static library's own dependencies (the compression libraries it was built with).
        with open(os.path.join(build, "dirfill-private-libs.txt")) as f:
            private = f.read().split()
        for ext in self.extensions:
            ext.extra_objects.append(os.path.join(build, "libdirfill.a"))
            ext.libraries.extend(private)
        super().run()


setup(
    ext_modules=[Extension(
        "dirfill._dirfill", ["dirfill/_module.c", "dirfill/_planes.c", "dirfill/_board.c",
                             "dirfill/_pgn.c", "dirfill/_source.c", "dirfill/_rows.c",
                             "dirfill/_pgn_batches.c", "dirfill/_filter.c", "dirfill/_shm_batches.c", "dirfill/_nnue.c", "dirfill/_queue.c",
                             "dirfill/_common.c"],
        include_dirs=[os.path.join(ROOT, "include"), numpy.get_include()],
        # -O3 over Python's -O2: the per-position row writers' loops unrolled (fewer
        # instructions in pgn_batches' row writing, measured with callgrind).
        extra_compile_args=["-std=c11", "-O3", "-Wall", "-Wextra", "-Werror", "-Wno-missing-field-initializers",
                            "-Wno-cast-function-type"],
        libraries=["pthread"])],
    cmdclass={"build_ext": build_with_library},
)
