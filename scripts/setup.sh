#!/bin/sh
# setup.sh [build|check|bench] - install the Debian packages a step needs,
# or name the missing ones.  build (the default): what building and
# running bcwalk needs (`make`, `make demo`, `make install`); check: that
# and what the tests use (`make check`); bench: that and what the
# benchmarks compare against (`make bench`).  README.md lists the same
# packages (tests/check_packages.py holds the two together).
set -eu

step=${1:-build}
# BCW_LLVM chooses the LLVM to build against (14, the default, or 19).
LLVM=${BCW_LLVM:-14}
# bcwalk itself: gcc and g++ (cmake builds bcwalk with cc and c++,
# which clang-$LLVM does not provide), LLVM and clang (the analysis, the
# workers' native code, the sanitizer runtimes of --sanitize), Z3,
# libffi, msgpack-c, xxHash (the results file's checksum), the build
# tools, and python3 (the man page is made from --help)
BUILD_PKGS="gcc g++ clang-$LLVM llvm-$LLVM-dev libclang-rt-$LLVM-dev libz3-dev libffi-dev libmsgpack-dev libxxhash-dev cmake make pkg-config python3"
# the tests: cmocka (the unit tests, the emitted C tests), msgpack and
# xxhash for Python (the end-to-end tests), and what reads back the exports: lcov
# (genhtml), graphviz (dot), libxml2-utils (xmllint),
# python3-jsonschema and chromium; npm, which fetches the SARIF schema
# (sarif-schema.sh), comes with Node.js, not as a Debian package here
CHECK_PKGS="libcmocka-dev python3-msgpack python3-xxhash lcov graphviz libxml2-utils python3-jsonschema chromium"
# the benchmarks: jansson (bench_json), bubblewrap (bench_sandbox)
BENCH_PKGS="libjansson-dev bubblewrap python3-msgpack"

case $step in
build) PKGS=$BUILD_PKGS ;;
check) PKGS="$BUILD_PKGS $CHECK_PKGS" ;;
bench) PKGS="$BUILD_PKGS $BENCH_PKGS" ;;
*)
    echo "usage: setup.sh [build|check|bench]" >&2
    exit 2
    ;;
esac
# BCW_SLURM=1 adds what `make check-slurm` needs: a single-node Slurm
# cluster (scripts/slurm-cluster.sh) and its authentication daemon.
if [ "${BCW_SLURM:-}" = 1 ]; then
    PKGS="$PKGS slurm-wlm munge"
fi

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -n "$missing" ] && [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $missing >&2
elif [ -n "$missing" ]; then
    echo "setup: missing Debian packages:$missing" >&2
    echo "setup: run as root: apt-get update && apt-get install -y$missing" >&2
    exit 1
fi

if [ "$step" = check ]; then
    exec "$(dirname "$0")/sarif-schema.sh"
fi
