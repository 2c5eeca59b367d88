#!/bin/sh
# fuzz/run.sh BUILD [SECONDS] - `make fuzz`: builds the libFuzzer harnesses
# of fuzz/ with clang into BUILD-fuzz, seeds each harness's corpus with
# files bcwalk makes of the examples (BUILD's bcwalk), runs each for
# SECONDS (default 60) and prints its executions, coverage and crashes.
# Exit 1 when a harness crashed: its input is in BUILD-fuzz/crashes/.
set -eu
build=$1
seconds=${2:-60}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$build-fuzz
clang=${BCW_CLANG:-clang-14}
cmake -S "$top/fuzz" -B "$out" -DCMAKE_C_COMPILER="$clang" >/dev/null
cmake --build "$out" -j "${JOBS:-2}" >/dev/null
bcwalk=$build/bin/bcwalk
examples=$build/examples
mkdir -p "$out/corpus/model" "$out/corpus/oracle" "$out/crashes" "$out/tmp"
for unit in bstack undo slots counter; do
    "$bcwalk" analyze "$examples/$unit.bc" \
        -o "$out/corpus/model/$unit.model" >/dev/null
    rm -f "$out/corpus/oracle/$unit.oracle"
    "$bcwalk" test "$examples/$unit.bc" --unit "$unit" --walk state \
        --depth 1 --oracle "$out/corpus/oracle/$unit.oracle" --accept \
        >/dev/null || true
done
status=0
echo "| harness | seconds | executions | coverage | crashes |"
echo "|---|---:|---:|---:|---:|"
for name in model oracle; do
    log=$out/$name.log
    if TMPDIR=$out/tmp "$out/fuzz_$name" -max_total_time="$seconds" \
        -rss_limit_mb=4096 -artifact_prefix="$out/crashes/$name-" \
        "$out/corpus/$name" >"$log" 2>&1; then
        crashes=0
    else
        crashes=1
        status=1
    fi
    runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    echo "| fuzz_$name | $seconds | ${runs:-?} | ${cov:-?} | $crashes |"
done
[ "$status" -eq 0 ] || echo "fuzz: a harness crashed; see $out/*.log and $out/crashes/" >&2
exit "$status"
