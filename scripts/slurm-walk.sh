#!/bin/bash
# slurm-walk.sh - spread one bcwalk walk over a Slurm cluster: a job array of
# N shards (bcwalk explore ... --shard i/N), then a job that merges them
# (bcwalk merge) into the results file one unsharded run would write.
# docs/slurm.md tells more; usage below.
set -eu

prog=${0##*/}

usage() {
    cat >&2 <<EOF
usage: $prog -n SHARDS -o OUT.results.msgpack [-b BCWALK] [-w] [-s 'SBATCH OPTIONS']
                     -- LIB.bc --unit U [other bcwalk explore options]

Submits a job array of SHARDS tasks, task i running
  BCWALK explore LIB.bc --unit U ... --shard i/SHARDS -o OUT.shards/shard-i.results.msgpack
and a job that runs after all of them succeeded (afterok)
  BCWALK merge OUT.shards/shard-0.results.msgpack ... -o OUT
Job scripts, logs (shard-i.out, shard-i.err, merge.out, merge.err) and exit
statuses go to OUT.shards/, which must be on a file system the nodes share.

  -n SHARDS   how many shards (array tasks), 1 or more
  -o OUT      the merged results file
  -b BCWALK   the bcwalk executable (default: bcwalk on PATH)
  -w          wait until the merge job ended; exit with its status (a shard
              that failed: 1)
  -s OPTIONS  more sbatch options for both jobs, split at blanks
              (e.g. -s '--partition=long --time=2:00:00 --cpus-per-task=4')
EOF
    exit 2
}

die() {
    echo "$prog: $*" >&2
    exit 2
}

shards='' out='' bcwalk='' wait=0 extra=''
while getopts n:o:b:s:wh opt; do
    case $opt in
        n) shards=$OPTARG ;;
        o) out=$OPTARG ;;
        b) bcwalk=$OPTARG ;;
        s) extra=$OPTARG ;;
        w) wait=1 ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))

[ -n "$shards" ] || { echo "$prog: -n SHARDS is required" >&2; usage; }
[ -n "$out" ] || { echo "$prog: -o OUT is required" >&2; usage; }
[ $# -ge 1 ] || { echo "$prog: no bcwalk explore arguments (after --: LIB.bc --unit U ...)" >&2; usage; }
case $shards in
    '' | *[!0-9]* | 0*) die "-n: '$shards' is not a positive number of shards" ;;
esac
[ "$shards" -le 100000 ] || die "-n: $shards shards: too many"
for a in "$@"; do
    case $a in
        -o | --output | --output=*) die "the explore arguments must not set the output ($a): give it to slurm-walk.sh's -o" ;;
        --shard | --shard=*) die "the explore arguments must not hold $a: slurm-walk.sh adds it" ;;
        --checkpoint | --checkpoint=* | --resume) die "$a: every shard would journal to the same file" ;;
    esac
done
command -v sbatch >/dev/null 2>&1 || die "sbatch not found: is this a Slurm submit host?"

# absolute paths: the jobs may run in another directory, on another node
if [ -z "$bcwalk" ]; then
    bcwalk=$(command -v bcwalk) || die "bcwalk is not on PATH: give -b BCWALK"
fi
case $bcwalk in
    */*) ;;
    *) found=$(command -v "$bcwalk") || die "-b: $bcwalk not found on PATH"
       bcwalk=$found ;;
esac
{ [ -f "$bcwalk" ] && [ -x "$bcwalk" ]; } || die "-b: $bcwalk is not an executable file"
bcwalk=$(cd "$(dirname "$bcwalk")" && pwd)/$(basename "$bcwalk")
outdir=$(dirname "$out")
[ -d "$outdir" ] || die "-o: no directory $outdir"
case $out in
    */) die "-o: $out is a directory" ;;
esac
out=$(cd "$outdir" && pwd)/$(basename "$out")
[ ! -d "$out" ] || die "-o: $out is a directory"
work=$out.shards
mkdir -p "$work"
# what an earlier run left there
rm -f "$work"/shard-*.results.msgpack "$work"/shard-*.status "$work"/shard-*.out \
    "$work"/shard-*.err "$work"/merge.* "$work"/shard.sh

q() { printf '%q' "$1"; }
args=
for a in "$@"; do
    args="$args $(q "$a")"
done

# task i of the array: one shard; bcwalk explore's 0 (no failures) and 1
# (failures found) are both a shard done
cat >"$work/shard.sh" <<EOF
#!/bin/bash
# written by slurm-walk.sh: shard \$SLURM_ARRAY_TASK_ID of $shards
set -u
i=\${SLURM_ARRAY_TASK_ID:?not a task of a job array}
work=$(q "$work")
rm -f "\$work/shard-\$i.status"
echo "slurm-walk: shard \$i/$shards: job \${SLURM_ARRAY_JOB_ID:-?}_\$i (\${SLURM_JOB_ID:-?}) on \$(hostname)" >&2
$(q "$bcwalk") explore$args --shard "\$i/$shards" -o "\$work/shard-\$i.results.msgpack"
rc=\$?
echo \$rc >"\$work/shard-\$i.status"
case \$rc in
    0 | 1) exit 0 ;;
    *) echo "slurm-walk: shard \$i/$shards: bcwalk explore exited \$rc" >&2
       exit \$rc ;;
esac
EOF

# after every shard: the merge, the shards in index order
cat >"$work/merge.sh" <<EOF
#!/bin/bash
# written by slurm-walk.sh: merges $shards shards into $(q "$out")
set -u
work=$(q "$work")
rm -f "\$work/merge.status"
files=()
for ((i = 0; i < $shards; i++)); do
    files+=("\$work/shard-\$i.results.msgpack")
done
$(q "$bcwalk") merge "\${files[@]}" -o $(q "$out")
rc=\$?
echo \$rc >"\$work/merge.status"
exit \$rc
EOF
chmod +x "$work/shard.sh" "$work/merge.sh"

# shellcheck disable=SC2206
extra_opts=($extra)
# "JOBID" or "JOBID;CLUSTER"
array=$(sbatch --parsable --job-name=bcwalk-shard --array=0-$((shards - 1)) \
    --chdir="$PWD" --output="$work/shard-%a.out" --error="$work/shard-%a.err" \
    ${extra_opts[@]+"${extra_opts[@]}"} "$work/shard.sh") ||
    { echo "$prog: sbatch of the shards failed" >&2; exit 1; }
array=${array%%;*}
echo "$array" >"$work/shards.jobid"
echo "$prog: shards: job array $array ($shards tasks), logs in $work/"

merge_opts=(--parsable --job-name=bcwalk-merge --dependency="afterok:$array"
    --kill-on-invalid-dep=yes --chdir="$PWD"
    --output="$work/merge.out" --error="$work/merge.err")

if [ "$wait" = 0 ]; then
    merge=$(sbatch "${merge_opts[@]}" ${extra_opts[@]+"${extra_opts[@]}"} "$work/merge.sh") ||
        { echo "$prog: sbatch of the merge failed (scancel $array)" >&2; exit 1; }
    merge=${merge%%;*}
    echo "$merge" >"$work/merge.jobid"
    echo "$prog: merge: job $merge, after the array, writes $out"
    exit 0
fi

# -w: sbatch --wait prints the job id at once, then returns when the job
# ended, with its exit status; in the background, so that a signal ends
# the wait at once
sbatch --wait "${merge_opts[@]}" ${extra_opts[@]+"${extra_opts[@]}"} "$work/merge.sh" \
    >"$work/merge.jobid" &
waiter=$!
trap 'kill "$waiter" 2>/dev/null || true
      echo "$prog: interrupted; the jobs go on: scancel $array ${merge:-}" >&2
      exit 130' INT TERM HUP
merge=
while [ ! -s "$work/merge.jobid" ] && kill -0 "$waiter" 2>/dev/null; do
    sleep 0.2
done
merge=$(cat "$work/merge.jobid")
merge=${merge%%;*}
if [ -n "$merge" ]; then
    echo "$prog: merge: job $merge, after the array, writes $out; waiting"
fi
if wait "$waiter"; then st=0; else st=$?; fi
trap - INT TERM HUP
[ -n "$merge" ] || { echo "$prog: sbatch of the merge failed (scancel $array)" >&2; exit 1; }
echo "$merge" >"$work/merge.jobid"

if [ -s "$work/merge.status" ]; then
    rc=$(cat "$work/merge.status")
    if [ "$rc" = 0 ]; then
        echo "$prog: merged $shards shards into $out"
    else
        echo "$prog: bcwalk merge exited $rc: see $work/merge.err" >&2
    fi
    exit "$rc"
fi
# sbatch --wait says 0 for a job cancelled before it ran: the merge never
# ran, because a shard failed (or the job was cancelled)
echo "$prog: the merge did not run (sbatch --wait: $st)" >&2
for ((i = 0; i < shards; i++)); do
    s=$(cat "$work/shard-$i.status" 2>/dev/null || echo none)
    case $s in
        0 | 1) ;;
        none) echo "$prog: shard $i: did not end (see $work/shard-$i.err)" >&2 ;;
        *) echo "$prog: shard $i: bcwalk explore exited $s (see $work/shard-$i.err)" >&2 ;;
    esac
done
exit 1
