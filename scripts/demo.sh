#!/bin/sh
# demo.sh - run bcwalk on the bundled bounded stack (make demo).
set -eu
build=${1:-build}
bc="$build/examples/bstack.bc"
run() {
    echo "\$ $*" | sed "s|$build/bin/||; s|$build/||g"
    "$@"
    echo
}
run "$build/bin/bcwalk" analyze "$bc"
run "$build/bin/bcwalk" explore "$bc" --unit bstack --walk protocol --depth 2
run "$build/bin/bcwalk" explore "$bc" --unit bstack --walk algebra --depth 3 --format json
# the state walk's report ends with the design states and the graph
echo "\$ bcwalk explore examples/bstack.bc --unit bstack --walk state --depth 3 | tail -28"
"$build/bin/bcwalk" explore "$bc" --unit bstack --walk state --depth 3 | tail -28
