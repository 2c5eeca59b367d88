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
# the state walk's report starts with its summary: the design states
# and the graph
echo "\$ bcwalk explore examples/bstack.bc --unit bstack --walk state --depth 3 | sed -n 1,37p"
"$build/bin/bcwalk" explore "$bc" --unit bstack --walk state --depth 3 | sed -n 1,37p
echo
# testing: a baseline accepted into an oracle, then a build with a seeded
# fault (capacity 3) judged against it: exit 1, what changed shown
oracle=$(mktemp -d)/bstack.oracle.msgpack
echo "\$ bcwalk test examples/bstack.bc --unit bstack --depth 4 --oracle bstack.oracle.msgpack --accept | grep -E '^(Passed|Failed|Pending|Accepted)'"
"$build/bin/bcwalk" test "$bc" --unit bstack --depth 4 --oracle "$oracle" --accept | grep -E '^(Passed|Failed|Pending|Accepted)'
echo
echo "\$ bcwalk test examples/bstack-cap3.bc --unit bstack --depth 4 --oracle bstack.oracle.msgpack | grep -B6 -- '--- changed'"
"$build/bin/bcwalk" test "$build/examples/bstack-cap3.bc" --unit bstack --depth 4 --oracle "$oracle" | grep -B6 -- '--- changed' || true
echo
# the change waits in the oracle for a person: listed, then rejected
echo "\$ bcwalk review --oracle bstack.oracle.msgpack --list"
"$build/bin/bcwalk" review --oracle "$oracle" --list || true
echo
echo "\$ echo n | bcwalk review --oracle bstack.oracle.msgpack | tail -1"
echo n | "$build/bin/bcwalk" review --oracle "$oracle" 2>/dev/null | tail -1
echo
rm -rf "$(dirname "$oracle")"
# two versions: a faulty undo history judged against the correct one
echo "\$ bcwalk test examples/undo-fault6.bc --unit undo --depth 6 --reference examples/undo.bc | grep -m1 -B8 -- '--- failed'"
"$build/bin/bcwalk" test "$build/examples/undo-fault6.bc" --unit undo --depth 6 --reference "$build/examples/undo.bc" | grep -m1 -B8 -- '--- failed' || true
