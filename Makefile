# SPDX-License-Identifier: MIT
# The two commands for people: `make bench` and `make test`. Everything else is CMake
# (see CMakePresets.json). Each target first makes sure the Debian packages it needs are
# there — only those, without Recommends: installed with apt-get when run as root, else the
# exact command is printed.

# The C toolchain, SIMDe (the vector backends) and the compression libraries of the PGN reader.
BUILD_DEPS  := cmake gcc libc6-dev make pkg-config libsimde-dev libzstd-dev zlib1g-dev
# The Python package: python/setup.py builds the static library with CMake (so BUILD_DEPS),
# then the extension against Debian's Python headers and numpy, in a venv of Debian's python3.
PYTHON_DEPS := $(BUILD_DEPS) python3-dev python3-venv python3-pip python3-setuptools \
               python3-wheel python3-numpy
# The tests add cmocka, a second compiler and C++ (the header checks), clang-format (the
# format check's own test), pytest and the Dask example's packages, doxygen (the API reference
# is a test), librsvg's renderer (the SVG pictures are checked as pixels) and the zstd and gzip
# programs (compressed test PGNs).
TEST_DEPS   := $(PYTHON_DEPS) libcmocka-dev g++ clang clang-format doxygen librsvg2-bin zstd gzip \
               python3-pytest python3-dask python3-distributed
DOCS_DEPS   := doxygen
# Debian's Python (the one its numpy and Dask packages belong to), whatever python3 is first
# on PATH.
PYTHON  ?= /usr/bin/python3
VENV    := build/venv
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
RELEASE := build/release
VERSION := $(shell sed -n 's/^\#define DIRFILL_VERSION_STRING "\(.*\)".*/\1/p' include/dirfill/version.h)

.PHONY: all bench test test-torch test-asan test-asan-clang test-tsan test-fuzz fuzz-report test-aarch64 fuzz \
        bench-plot picture docs build python python-asan python-asan-install format format-check clean

all: build

# $(call ensure,PACKAGES): installs the missing ones (root), or prints the command.
define ensure
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "missing Debian packages; run:"; \
	    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends$$missing"; exit 1; \
	  fi; \
	fi
endef

build:
	$(call ensure,$(BUILD_DEPS))
	cmake --preset release -DDIRFILL_BUILD_TESTS=OFF
	cmake --build --preset release -j $(JOBS)

bench: build
	$(RELEASE)/dirfill bench

bench-plot: build
	$(RELEASE)/dirfill bench --svg docs/bench.svg

# The README's picture: an Italian-game position where the bishop on b4 pins the knight on c3.
# Black's attack counts as a heat map, the pin with its line, the squares white attacks twice.
PICTURE_FEN  := r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 1 5
PICTURE_SHOW := counts.black,pins,twice.white
picture: build
	$(RELEASE)/dirfill analyze --svg docs/attack-map.svg --show $(PICTURE_SHOW) --fen "$(PICTURE_FEN)" > /dev/null

# The Python package first: CMake then finds its venv, and the engine tuner's test
# (example.engine_tune) runs with NumPy and dirfill instead of skipping.
test:
	$(call ensure,$(TEST_DEPS))
	$(MAKE) --no-print-directory python
	cmake --preset release -DDIRFILL_BUILD_TESTS=ON
	cmake --build --preset release -j $(JOBS)
	ctest --preset release -j $(JOBS)
	$(VENV)/bin/python -m pytest -q python/tests --ignore=python/tests/test_torch.py \
	  --ignore=python/tests/test_torch_nnue.py

# The PyTorch dataset (dirfill.torch) and examples/train_torch.py: Debian's python3-torch is a
# large install (about 170 packages) that make test should not wait for, so CI runs them here;
# DIRFILL_REQUIRE_TORCH makes a missing torch a failure, never a skip.
test-torch: python
	$(call ensure,$(TEST_DEPS) python3-torch)
	DIRFILL_REQUIRE_TORCH=1 $(VENV)/bin/python -m pytest -q python/tests/test_torch.py \
	  python/tests/test_torch_nnue.py

# The Python package in a venv that sees Debian's numpy and Dask: build/venv/bin/python. Built
# again only when what it is built from changed, so make test-torch after make test (as CI runs
# them) does not build the same package twice.
PYTHON_SOURCES := $(shell find include src cmake python/dirfill CMakeLists.txt python/setup.py \
                    python/pyproject.toml -type f ! -name '*.pyc' 2>/dev/null)
PYTHON_STAMP   := $(VENV)/.dirfill-installed
python: $(PYTHON_STAMP)
$(PYTHON_STAMP): $(PYTHON_SOURCES)
	$(call ensure,$(PYTHON_DEPS))
	$(PYTHON) -m venv --system-site-packages $(VENV)
	rm -rf python/build  # setuptools would reuse objects of another build's flags
	$(VENV)/bin/python -m pip install -q --no-build-isolation --no-deps --force-reinstall ./python
	touch $@

# pytest, one process, runs beside the tests' build and CTest (its output shown after CTest's)
# rather than after them: it needs only the extension, and the CPUs stay busy while it runs.
test-asan: python-asan-install
	{ $(ASAN_PYTEST) >build/asan/pytest.log 2>&1; echo $$? >build/asan/pytest.status; } & \
	  cmake --build --preset asan -j $(JOBS) && ctest --preset asan -j $(JOBS); status=$$?; \
	  wait; cat build/asan/pytest.log; \
	  [ $$status = 0 ] && [ "$$(cat build/asan/pytest.status)" = 0 ]

# The Python package built with AddressSanitizer and UBSan in its own venv: the extension,
# linked with the asan preset's library (the one the C tests use, position independent), its
# tests run with the runtimes preloaded into Debian's python3 (-s: a sanitizer report goes to
# stderr as the process stops, where pytest must not be capturing it).
SANITIZE   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_VENV  := build/venv-asan
ASAN_PYTEST = LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
  ASAN_OPTIONS=detect_leaks=0 PYTHONMALLOC=malloc DIRFILL_SANITIZED=1 \
  $(ASAN_VENV)/bin/python -m pytest -q -s -p no:cacheprovider python/tests/test_hardening.py \
  python/tests/test_board.py python/tests/test_dirfill.py python/tests/test_svg.py \
  python/tests/test_pgn_batches.py python/tests/test_batch_path.py python/tests/test_nnue.py \
  python/tests/test_fork.py
python-asan: python-asan-install
	$(ASAN_PYTEST)
python-asan-install:
	$(call ensure,$(TEST_DEPS))
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS) --target dirfill
	rm -rf $(ASAN_VENV) python/build
	$(PYTHON) -m venv --system-site-packages $(ASAN_VENV)
	CFLAGS="$(SANITIZE)" LDFLAGS="$(SANITIZE)" DIRFILL_LIBRARY_BUILD="$(CURDIR)/build/asan" \
	  $(ASAN_VENV)/bin/python -m pip install -q --no-build-isolation --no-deps --force-reinstall ./python
	rm -rf python/build

# The same with clang's sanitizers (they differ from GCC's in what they catch and in how a
# program detects them), on the native backends as test-asan (CMakePresets.json); the
# program's tests (label cli: minutes under the instrumentation, their library code run by
# the unit tests here too) only under GCC's, and so is test_pgn_real (the real files, also read
# under TSan; the PGN reader's code runs here in test_pgn and fuzz_pgn). The build is also test-fuzz's (the libFuzzer targets and their coverage instrumentation): one
# clang build serves both, though the tests run longer under the instrumentation.
FUZZ_TREE := build/asan-clang/tests
test-asan-clang:
	$(call ensure,$(TEST_DEPS) libclang-rt-14-dev)
	cmake --preset asan-clang
	cmake --build --preset asan-clang -j $(JOBS)
	ctest --preset asan-clang -j $(JOBS)

# The tests labelled threads, on the native vector backends only (CMakePresets.json): the
# threads' code is the same on every backend, and the emulated ones are slow.
test-tsan:
	$(call ensure,$(TEST_DEPS))
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)
	ctest --preset tsan

# What a failed fuzz run leaves for whoever reads only the end of the log (a CI summary): the
# CPU (the inputs a run tries depend on the code paths it covers, and the backend and lookup
# chosen differ by CPU) and each input that failed, in base64.
fuzz-report:
	@echo "=== fuzz failure: $$(grep -m1 'model name' /proc/cpuinfo)"
	@for f in $(FUZZ_TREE)/artifacts/*; do \
	  [ -f "$$f" ] && { echo "=== $$f"; base64 -w 0 "$$f"; echo; }; done; true

# libFuzzer targets under ASan/UBSan with clang, in test-asan-clang's build: a bounded run of
# each.
test-fuzz:
	$(call ensure,$(TEST_DEPS) libclang-rt-14-dev)
	cmake --preset asan-clang
	cmake --build --preset fuzz -j $(JOBS)
	rm -rf $(FUZZ_TREE)/artifacts
	ctest --preset fuzz || { $(MAKE) --no-print-directory fuzz-report; exit 1; }

# Fuzz longer: make fuzz FUZZ_SECONDS=3600 (each target in turn; new inputs kept in
# build/asan-clang/tests/corpus-*).
FUZZ_SECONDS ?= 300
FUZZERS := fen differential movegen pgn python_inputs binpack
fuzz: test-fuzz
	cd $(FUZZ_TREE) && for t in $(FUZZERS); do mkdir -p corpus-$$t && \
	  ./fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 corpus-$$t ../../../tests/fuzz/seeds-$$t; done

# Every C and C++ source as the project's .clang-format lays it out: format-check fails on the
# first file that differs (CI runs it), format rewrites them.
FORMAT_SOURCES = $(shell find include src app bench cmdline tests examples python -name build -prune \
                   -o \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) -type f -print | sort)
format-check:
	$(call ensure,clang-format)
	clang-format --dry-run -Werror $(FORMAT_SOURCES)
	@echo "format-check: $(words $(FORMAT_SOURCES)) files as .clang-format lays them out"
format:
	$(call ensure,clang-format)
	clang-format -i $(FORMAT_SOURCES)

# API reference from the public headers (Doxygen, warnings are errors): build/docs/html/index.html
docs:
	$(call ensure,$(DOCS_DEPS))
	mkdir -p build/docs
	(cat docs/Doxyfile; echo "PROJECT_NUMBER = $(VERSION)") | doxygen -
	@echo "API reference: build/docs/html/index.html"

# 64-bit ARM: cross build with Debian's gcc-aarch64-linux-gnu, tests under qemu-user. The
# docs checks (label docs) run nothing of the cross build: make test runs them.
test-aarch64:
	@dpkg --print-foreign-architectures | grep -q arm64 || { [ "$$(id -u)" = 0 ] && dpkg --add-architecture arm64; }
	$(call ensure,$(BUILD_DEPS) gcc-aarch64-linux-gnu qemu-user libcmocka-dev:arm64 libzstd-dev:arm64 zlib1g-dev:arm64)
	cmake --preset aarch64
	cmake --build --preset aarch64 -j $(JOBS)
	ctest --preset aarch64 -j $(JOBS)

clean:
	rm -rf build
