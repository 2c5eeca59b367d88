#!/bin/sh
# fuzz/run.sh BUILD [SECONDS] - `make fuzz`: builds bcwalk with clang,
# libFuzzer's coverage, ASan and UBSan into BUILD-fuzz (-DBCW_FUZZ=ON:
# the harnesses of fuzz/), seeds each harness's corpus with files BUILD's
# bcwalk makes of the examples, runs each for SECONDS (default 60) and
# prints its executions, coverage and crashes.  Exit 1 when a harness
# crashed: its input is in BUILD-fuzz/crashes/ (keep it as a test in
# tests/data/fuzz/, fuzz/README.md).
set -eu
build=$(cd "$1" && pwd)
seconds=${2:-60}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$build-fuzz
llvm=${BCW_LLVM_VERSION:-14}
# a folder of another source tree or project: made again
if [ -f "$out/CMakeCache.txt" ] &&
    ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$top" "$out/CMakeCache.txt"; then
    rm -rf "$out"
fi
cmake -S "$top" -B "$out" -DBCW_FUZZ=ON -DBCW_WERROR=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBCW_LLVM_VERSION="$llvm" \
    -DCMAKE_C_COMPILER="clang-$llvm" -DCMAKE_CXX_COMPILER="clang++-$llvm" \
    >/dev/null
harnesses="model oracle analyze results journal learned"
cmake --build "$out" -j "${JOBS:-2}" $(for n in $harnesses; do
    printf -- '--target fuzz_%s ' "$n"; done) >/dev/null

bcwalk=$build/bin/bcwalk
examples=$build/examples
corpus=$out/corpus
rm -rf "$corpus" "$out/tmp"
for name in $harnesses; do
    mkdir -p "$corpus/$name"
done
mkdir -p "$out/crashes" "$out/tmp" "$out/cache"
export XDG_CACHE_HOME="$out/cache" TMPDIR="$out/tmp"
export BCW_FUZZ_EXAMPLES="$examples"
# models and oracles of small units; their bitcode, and its text
for unit in bstack undo slots counter; do
    "$bcwalk" analyze "$examples/$unit.bc" -o "$corpus/model/$unit.model" \
        >/dev/null
    "$bcwalk" test "$examples/$unit.bc" --unit "$unit" --walk state \
        --depth 1 --oracle "$corpus/oracle/$unit.oracle" --accept \
        >/dev/null || true
    cp "$examples/$unit.bc" "$corpus/analyze/"
    "llvm-dis-$llvm" "$examples/$unit.bc" -o "$corpus/analyze/$unit.ll"
done
cp "$top"/tests/data/debuginfo/*.ll "$corpus/analyze/"
# results: a protocol walk, a state walk with coverage, a walk's shards
"$bcwalk" explore "$examples/bstack.bc" --unit bstack --depth 2 \
    -o "$corpus/results/bstack.results" >/dev/null
"$bcwalk" explore "$examples/counter.bc" --unit counter --walk state \
    --depth 1 --coverage "$out/tmp/c.info" \
    -o "$corpus/results/counter.results" >/dev/null
for i in 0 1; do
    "$bcwalk" explore "$examples/bstack.bc" --unit bstack --depth 2 \
        --shard "$i/2" -o "$corpus/results/bstack.$i.results" >/dev/null
done
# a walk shared out by its 2 shards (parts of their own): shard 0 a seed,
# shard 1 what the harness merges each input with
"$bcwalk" explore "$examples/bstack.bc" --unit bstack --depth 5 \
    --prune none --shard 0/2 -o "$corpus/results/parts.0.results" >/dev/null
"$bcwalk" explore "$examples/bstack.bc" --unit bstack --depth 5 \
    --prune none --shard 1/2 -o "$out/parts.1.results" >/dev/null
export BCW_FUZZ_SHARD="$out/parts.1.results"
# journals of fuzz_journal.c's own walk
"$bcwalk" explore "$examples/bstack.bc" --unit bstack --depth 2 \
    --coverage "$out/tmp/j.info" --checkpoint "$corpus/journal/bstack.ckpt" \
    >/dev/null
# a learned model of the fifo's tests
"$bcwalk" learn "$examples/fifo_tests.bc" "$examples/fifo.bc" --unit fifo \
    -o "$corpus/learned/fifo.learned" >/dev/null

# what a harness's children leave in their working folder stays here
cd "$out"
status=0
echo "| harness | seconds | executions | coverage | crashes |"
echo "|---|---:|---:|---:|---:|"
for name in $harnesses; do
    log=$out/$name.log
    rm -f "$out"/tmp/fuzz-*
    # what crashed a harness before (tests/data/fuzz/), then a fuzzing
    # run; -close_fd_mask=3: what the code fuzzed prints is not the log's
    found=$top/tests/data/fuzz/$name
    if { [ ! -d "$found" ] || "$out/bin/fuzz_$name" -close_fd_mask=3 \
            "$found"/* >"$log" 2>&1; } &&
        "$out/bin/fuzz_$name" -max_total_time="$seconds" -timeout=60 \
            -rss_limit_mb=4096 -close_fd_mask=3 \
            -artifact_prefix="$out/crashes/$name-" "$corpus/$name" \
            >>"$log" 2>&1; then
        crashes=0
        # what children of the harness left (LLVM's exit in a child that
        # reads bitcode runs libFuzzer's exit handler there): none of it
        # is the harness's crash, which ends the run
        rm -f "$out/crashes/$name"-*
    else
        crashes=1
        status=1
        # the files the harness wrote last: the crashing input as bcwalk
        # read it, its checksums made right
        for f in "$out"/tmp/fuzz-*; do
            [ -f "$f" ] && cp "$f" "$out/crashes/$name-read-${f##*-}"
        done
    fi
    runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    echo "| fuzz_$name | $seconds | ${runs:-?} | ${cov:-?} | $crashes |"
done
[ "$status" -eq 0 ] || echo "fuzz: a harness crashed; see $out/*.log and $out/crashes/" >&2
exit "$status"
