#!/bin/sh
# setup.sh - install the Debian packages bcwalk needs, or name the missing ones.
# Run by `make setup` (and so by `make demo`, `make check`, `make bench`).
set -eu

# BCW_LLVM chooses the LLVM to build against (14, the default, or 19).
LLVM=${BCW_LLVM:-14}
# lcov (genhtml), graphviz (dot), libxml2-utils (xmllint), python3-jsonschema
# and chromium read back the exports of `bcwalk report` in the tests.
PKGS="clang-$LLVM llvm-$LLVM-dev libclang-rt-$LLVM-dev libz3-dev libffi-dev libmsgpack-dev libcmocka-dev libjansson-dev bubblewrap cmake make python3 python3-msgpack pkg-config lcov graphviz libxml2-utils python3-jsonschema chromium"
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

if [ -z "$missing" ]; then
    exec "$(dirname "$0")/sarif-schema.sh"
fi

if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    # shellcheck disable=SC2086
    apt-get install -y -q --no-install-recommends $missing >&2
else
    echo "setup: missing Debian packages:$missing" >&2
    echo "setup: run as root: apt-get update && apt-get install -y$missing" >&2
    exit 1
fi

exec "$(dirname "$0")/sarif-schema.sh"
