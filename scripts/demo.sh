#!/bin/sh
# demo.sh - run bcwalk on the bundled bounded stack (make demo).
set -eu
build=${1:-build}
bc="$build/examples/bstack.bc"
run() {
    echo "\$ $*" | sed "s|$build/||g"
    "$@"
    echo
}
run "$build/bcwalk" analyze "$bc"
run "$build/bcwalk" explore "$bc" --unit bstack --walk protocol --depth 2
run "$build/bcwalk" explore "$bc" --unit bstack --walk algebra --depth 3 --format json
