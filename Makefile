# The front door: make demo, make check, make bench.  Everything else is
# CMake (CMakeLists.txt); this file only sets up, configures and delegates.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

.PHONY: all setup setup-check configure build demo check check-asan check-llvm19 check-slurm bench fuzz install golden format clean

all: build

# what building and running bcwalk needs; setup-check adds the tests'
# tools (scripts/setup.sh)
setup:
	@./scripts/setup.sh build

setup-check:
	@./scripts/setup.sh check

$(BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: $(BUILD)/CMakeCache.txt

build: setup configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@./scripts/demo.sh $(BUILD)

# configured again: the tests are built once cmocka is there
check: setup-check build
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

check-asan: setup-check
	cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=Debug -DBCW_SANITIZE=ON
	cmake --build $(BUILD)-asan -j $(JOBS)
	cd $(BUILD)-asan && ctest --output-on-failure -j $(JOBS)

# The same suite built against LLVM 19 (clang-19 makes the examples and
# the native code of units), for bitcode from newer compilers.
check-llvm19:
	@BCW_LLVM=19 ./scripts/setup.sh check
	cmake -S . -B $(BUILD)-llvm19 $(CMAKE_FLAGS) -DBCW_LLVM_VERSION=19
	cmake --build $(BUILD)-llvm19 -j $(JOBS)
	cd $(BUILD)-llvm19 && ctest --output-on-failure -j $(JOBS)

# A walk sharded over a real single-node Slurm cluster started in a
# temporary directory (scripts/slurm-walk.sh, docs/slurm.md): the merged
# results equal one unsharded run's byte for byte.  Installs slurm-wlm and
# munge if missing.
check-slurm: build
	@BCW_SLURM=1 ./scripts/setup.sh build
	./tests/slurm/run.sh $(BUILD)/bin/bcwalk $(BUILD)/examples/bstack.bc

# The libFuzzer harnesses of bcwalk's file readers (fuzz/), each run for
# FUZZ_SECONDS (default 60) from seeds made of the examples; fails when
# one crashes (its input in $(BUILD)-fuzz/crashes/).
FUZZ_SECONDS ?= 60
fuzz: build
	./fuzz/run.sh $(BUILD) $(FUZZ_SECONDS)

# Installs bin/bcwalk, its runtime, the public headers, the opt plugin, a
# pkg-config file and the man page under PREFIX (make install
# PREFIX=$$HOME/.local).
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

bench: build
	@./scripts/setup.sh bench
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) --target bench

# tests/golden/ written anew from this build's reports: review the diff
golden: build
	cmake --build $(BUILD) --target golden

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cpp')

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-llvm19
