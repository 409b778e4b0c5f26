# The two commands for people: `make bench` and `make test`. Everything else is CMake
# (see CMakePresets.json). Each target first makes sure the Debian build dependencies are
# there: installed with apt-get when run as root, else the exact command is printed.

DEPS    := cmake gcc g++ make pkg-config libcmocka-dev libsimde-dev doxygen \
           python3-dev python3-venv python3-pip python3-setuptools python3-wheel python3-numpy \
           python3-pytest python3-dask python3-distributed
# Debian's Python (the one its numpy and Dask packages belong to), whatever python3 is first
# on PATH.
PYTHON  ?= /usr/bin/python3
VENV    := build/venv
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
RELEASE := build/release

.PHONY: all bench test test-asan test-tsan test-fuzz test-aarch64 fuzz bench-plot docs deps build \
        python clean

all: build

deps:
	@missing=""; for p in $(DEPS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "missing Debian packages; run:"; \
	    echo "  sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

build: deps
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

bench: build
	$(RELEASE)/dirfill bench

bench-plot: build
	$(RELEASE)/dirfill bench --svg docs/bench.svg

test: build python
	ctest --preset release -j $(JOBS)
	$(VENV)/bin/python -m pytest -q python/tests

# The Python package in a venv that sees Debian's numpy and Dask: build/venv/bin/python.
python: deps
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(VENV)/bin/python -m pip install -q --no-build-isolation --no-deps --force-reinstall ./python

test-asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	ctest --preset asan -j $(JOBS)

test-tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)
	ctest --preset tsan

# libFuzzer targets under ASan/UBSan with clang: a bounded run of each.
test-fuzz: deps
	@command -v clang >/dev/null || $(MAKE) --no-print-directory deps DEPS="clang libclang-rt-14-dev"
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS)
	ctest --preset fuzz

# Fuzz longer: make fuzz FUZZ_SECONDS=3600 (each target in turn; new inputs kept in build/fuzz).
FUZZ_SECONDS ?= 300
fuzz: test-fuzz
	cd build/fuzz/tests && for t in fen differential movegen; do mkdir -p corpus-$$t && \
	  ./fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 corpus-$$t ../../../tests/fuzz/seeds-$$t; done

# API reference from the public headers (Doxygen, warnings are errors): build/docs/html/index.html
docs: deps
	doxygen docs/Doxyfile
	@echo "API reference: build/docs/html/index.html"

# 64-bit ARM: cross build with Debian's gcc-aarch64-linux-gnu, tests under qemu-user.
test-aarch64:
	@dpkg --print-foreign-architectures | grep -q arm64 || { [ "$$(id -u)" = 0 ] && dpkg --add-architecture arm64; }
	$(MAKE) --no-print-directory deps DEPS="gcc-aarch64-linux-gnu qemu-user libcmocka-dev:arm64"
	cmake --preset aarch64
	cmake --build --preset aarch64 -j $(JOBS)
	ctest --preset aarch64 -j $(JOBS)

clean:
	rm -rf build
