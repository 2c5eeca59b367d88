#!/bin/sh
# tests/slurm/run.sh BCWALK EXAMPLE_BC - `make check-slurm`: a walk spread
# over a real (single-node, private) Slurm cluster by scripts/slurm-walk.sh
# gives byte for byte the results file of one unsharded run.
#
# Starts a cluster in a temporary directory (scripts/slurm-cluster.sh), walks
# EXAMPLE_BC's unit bstack (protocol walk, depth 7, unpruned: shared out at length 4) as a job array of 3
# shards and a merge job, runs the same walk unsharded and compares the two
# results files; checks that the array ran as 3 tasks, each with its shard
# file and logs.  The cluster is stopped and the directory removed on any
# exit.  Needs slurm-wlm and munge (BCW_SLURM=1 scripts/setup.sh).
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 BCWALK EXAMPLE_BC" >&2
    exit 2
fi
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
[ -x "$1" ] || { echo "check-slurm: $1 is not an executable" >&2; exit 2; }
[ -f "$2" ] || { echo "check-slurm: no bitcode $2" >&2; exit 2; }
BCWALK=$(abs "$1")
BC=$(abs "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
SHARDS=3
WALK="--unit bstack --walk protocol --depth 7 --prune none"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bcwalk-slurm.XXXXXX")
cluster=$tmp/cluster
cleanup() {
    rc=$?
    trap - EXIT INT TERM HUP
    if [ -d "$cluster" ]; then
        if ! "$root/scripts/slurm-cluster.sh" stop "$cluster"; then
            echo "check-slurm: FAIL: the cluster did not stop cleanly" >&2
            rc=1
        fi
    fi
    rm -rf "$tmp"
    exit $rc
}
walker=
trap cleanup EXIT
trap '[ -z "$walker" ] || kill "$walker" 2>/dev/null || true; exit 130' INT TERM HUP

fail() {
    echo "check-slurm: FAIL: $*" >&2
    for f in "$tmp"/merged.results.msgpack.shards/*.out \
        "$tmp"/merged.results.msgpack.shards/*.err "$cluster"/log/*.log; do
        [ -s "$f" ] || continue
        echo "--- tail of $f" >&2
        tail -n 15 "$f" >&2
    done
    exit 1
}

started=$(date +%s)
"$root/scripts/slurm-cluster.sh" start "$cluster" >/dev/null ||
    fail "the Slurm cluster did not start"
# shellcheck source=/dev/null
. "$cluster/env.sh"
echo "check-slurm: cluster up in $(($(date +%s) - started)) s ($SLURM_CONF)"

merged=$tmp/merged.results.msgpack
work=$merged.shards
# in the background, so that a signal is handled at once (the EXIT trap
# then stops the cluster)
# shellcheck disable=SC2086
"$root/scripts/slurm-walk.sh" -w -n $SHARDS -o "$merged" -b "$BCWALK" -- "$BC" $WALK &
walker=$!
if wait "$walker"; then st=0; else st=$?; fi
walker=
[ -s "$work/merge.status" ] ||
    fail "the merge job did not run (slurm-walk.sh exited $st): a shard failed?"
case $st in
    0 | 1) ;;
    *) fail "slurm-walk.sh exited $st: bcwalk merge failed" ;;
esac
echo "check-slurm: sharded walk done in $(($(date +%s) - started)) s (status $st)"

# the array really ran as $SHARDS tasks: each its shard file, its logs, its
# exit status, and slurmctld's record of the task (kept MinJobAge seconds)
array=$(cat "$work/shards.jobid")
i=0
while [ $i -lt $SHARDS ]; do
    for f in "shard-$i.results.msgpack" "shard-$i.out" "shard-$i.err" "shard-$i.status"; do
        [ -f "$work/$f" ] || fail "shard $i: no $work/$f"
    done
    [ -s "$work/shard-$i.results.msgpack" ] || fail "shard $i: empty results file"
    grep -q "^slurm-walk: shard $i/$SHARDS: job ${array}_$i " "$work/shard-$i.err" ||
        fail "shard $i: $work/shard-$i.err does not say it ran as task $i of job array $array"
    case $(cat "$work/shard-$i.status") in
        0 | 1) ;;
        *) fail "shard $i: bcwalk explore exited $(cat "$work/shard-$i.status")" ;;
    esac
    i=$((i + 1))
done
[ ! -e "$work/shard-$SHARDS.results.msgpack" ] || fail "a shard $SHARDS ran"
tasks=$(scontrol -o show job "$array" | grep "ArrayJobId=$array " | grep -c "JobState=COMPLETED" || true)
[ "$tasks" -eq $SHARDS ] || fail "job array $array: $tasks completed tasks, not $SHARDS"
merge=$(cat "$work/merge.jobid")
scontrol -o show job "$merge" | grep -q "JobState=COMPLETED" ||
    fail "merge job $merge did not complete"
[ -s "$merged" ] || fail "no merged results file $merged"

one=$tmp/one.results.msgpack
# shellcheck disable=SC2086
if "$BCWALK" explore "$BC" $WALK -o "$one" >"$tmp/one.out" 2>"$tmp/one.err"; then
    st1=0
else
    st1=$?
fi
case $st1 in
    0 | 1) ;;
    *) cat "$tmp/one.err" >&2; fail "the unsharded walk exited $st1" ;;
esac
if ! cmp "$one" "$merged"; then
    fail "the merged results of $SHARDS shards differ from the unsharded run's ($(wc -c <"$merged") and $(wc -c <"$one") bytes)"
fi
echo "check-slurm: PASS: $SHARDS shards (job array $array) merged by job $merge equal the unsharded walk ($(wc -c <"$one") bytes) in $(($(date +%s) - started)) s"

# A pruned walk whose shards prune together (--shard-sync, docs/shards.md):
# they wait for each other after every length, so the array's tasks must
# all run at once, one per CPU of the node; the merge equals one run.
cpus=$(sinfo -h -o %c | head -n 1)
if [ "${cpus:-1}" -lt 2 ]; then
    echo "check-slurm: the node has ${cpus:-1} CPU: shards pruning together not run (they must run at once)"
    exit 0
fi
PRUNED="--unit bstack --walk protocol --depth 12 --prune state"
synced=$tmp/synced.results.msgpack
# shellcheck disable=SC2086
"$root/scripts/slurm-walk.sh" -w -n 2 -o "$synced" -b "$BCWALK" -- "$BC" $PRUNED \
    --shard-sync "$synced.shards/sync" &
walker=$!
if wait "$walker"; then st=0; else st=$?; fi
walker=
case $st in
    0 | 1) ;;
    *) fail "the walk pruned together: slurm-walk.sh exited $st" ;;
esac
one=$tmp/one-pruned.results.msgpack
# shellcheck disable=SC2086
"$BCWALK" explore "$BC" $PRUNED -o "$one" >/dev/null 2>"$tmp/one-pruned.err" ||
    [ $? -eq 1 ] || fail "the unsharded pruned walk failed"
cmp "$one" "$synced" ||
    fail "the merged results of 2 shards pruning together differ from the unsharded run's"
echo "check-slurm: PASS: 2 shards pruning together (--shard-sync) merged equal the unsharded pruned walk ($(wc -c <"$one") bytes)"
