# The two commands for people: `make bench` and `make test`. Everything else is CMake
# (see CMakePresets.json). Each target first makes sure the Debian build dependencies are
# there: installed with apt-get when run as root, else the exact command is printed.

DEPS    := cmake gcc make pkg-config libcmocka-dev libsimde-dev
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
RELEASE := build/release

.PHONY: all bench test test-asan test-tsan bench-plot deps build clean

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

test: build
	ctest --preset release -j $(JOBS)

test-asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	ctest --preset asan -j $(JOBS)

test-tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)
	ctest --preset tsan

clean:
	rm -rf build
