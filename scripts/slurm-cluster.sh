#!/bin/sh
# slurm-cluster.sh - a private single-node Slurm cluster inside one directory.
#
#   scripts/slurm-cluster.sh start DIR   # then: . DIR/env.sh
#   scripts/slurm-cluster.sh stop DIR
#
# `start` writes DIR/slurm.conf, a munge key and starts munged, slurmctld and
# slurmd as the current user, every file they write (state, spool, logs, pid
# files, the munge socket) inside DIR, on two free TCP ports; it returns when
# sinfo shows the node idle and writes DIR/env.sh (SLURM_CONF=DIR/slurm.conf),
# which it also prints.  `stop` cancels the cluster's jobs and ends the
# daemons by the pids in their pid files.  No systemd, no /etc/slurm, no
# /run/munge: a system-wide Slurm or munge, if one runs, is left alone.
# Needs the Debian packages slurm-wlm and munge (BCW_SLURM=1 scripts/setup.sh).
# Written for Slurm 22.05 (Debian 12) and munge 0.5.15.
set -eu

TIMEOUT=${BCW_SLURM_TIMEOUT:-60}  # seconds to wait for the node to be idle

usage() {
    echo "usage: $0 start DIR | stop DIR" >&2
    exit 2
}

die() {
    echo "slurm-cluster: $*" >&2
    exit 1
}

[ $# -eq 2 ] || usage
cmd=$1
case $2 in
    /*) DIR=$2 ;;
    *) DIR=$(pwd)/$2 ;;
esac

# The pid in a pid file if that process is alive (a zombie counts as gone).
live_pid() {
    [ -s "$1" ] || return 1
    pid=$(tr -dc 0-9 <"$1")
    [ -n "$pid" ] || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -c1) || state=
    [ "$state" != Z ] || return 1
    echo "$pid"
}

# Sends TERM to a pid and waits up to 20 s for it to end, then KILL.
end_pid() {
    kill -TERM "$1" 2>/dev/null || return 0
    i=0
    while kill -0 "$1" 2>/dev/null; do
        state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || state=
        [ "$state" != Z ] || return 0
        i=$((i + 1))
        if [ $i -eq 100 ]; then
            echo "slurm-cluster: pid $1 ignored SIGTERM for 20 s: SIGKILL" >&2
            kill -KILL "$1" 2>/dev/null || return 0
        fi
        [ $i -lt 150 ] || { echo "slurm-cluster: pid $1 does not end" >&2; return 1; }
        sleep 0.2
    done
}

# The parent pid of a process.
ppid_of() {
    sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f2
}

# Whether pid $1 is this script, one of its ancestors or descendants.
kin() {
    p=$$
    while [ -n "$p" ] && [ "$p" -gt 1 ]; do
        [ "$p" != "$1" ] || return 0
        p=$(ppid_of "$p")
    done
    p=$1
    while [ -n "$p" ] && [ "$p" -gt 1 ]; do
        [ "$p" != $$ ] || return 0
        p=$(ppid_of "$p")
    done
    return 1
}

# What the cluster started and left running: processes with the mark
# start gives the daemons (BCW_SLURM_CLUSTER=DIR, inherited by slurmstepd),
# and the jobs' processes (SLURM_JOB_ID with SLURM_CONF=DIR/slurm.conf):
# their pids.
cluster_pids() {
    {
        grep -lszxF "BCW_SLURM_CLUSTER=$DIR" /proc/[0-9]*/environ || true
        for env in $(grep -lszxF "SLURM_CONF=$DIR/slurm.conf" /proc/[0-9]*/environ || true); do
            ! grep -qsz '^SLURM_JOB_ID=' "$env" || echo "$env"
        done
    } | sort -u | while read -r env; do
        pid=${env#/proc/}
        pid=${pid%/environ}
        # gone (the greps above among them), or this script's kin
        [ -d "/proc/$pid" ] || continue
        kin "$pid" || echo "$pid"
    done
}

# Listening TCP ports, in decimal.
listening_ports() {
    for f in /proc/net/tcp /proc/net/tcp6; do
        [ -r "$f" ] || continue
        awk 'NR > 1 && $4 == "0A" { split($2, a, ":"); print a[2] }' "$f"
    done | while read -r hex; do
        printf '%d\n' "0x$hex"
    done
}

# Two consecutive free ports in 20000-59999, away from Slurm's 6817-6819.
free_ports() {
    used=$(listening_ports | tr '\n' ' ')
    seed=$(od -An -N2 -tu2 /dev/urandom | tr -dc 0-9)
    n=0
    while [ $n -lt 200 ]; do
        p=$((20000 + (seed + n * 97) % 40000))
        case " $used " in
            *" $p "* | *" $((p + 1)) "*) ;;
            *) echo "$p $((p + 1))"; return 0 ;;
        esac
        n=$((n + 1))
    done
    die "no free TCP ports found"
}

tails() {
    for f in "$DIR"/log/*.log; do
        [ -f "$f" ] || continue
        echo "--- tail of $f" >&2
        tail -n 20 "$f" >&2
    done
}

# start failed: the logs' tails, what did start stopped, exit 1
abort() {
    echo "slurm-cluster: $*" >&2
    tails
    "$0" stop "$DIR" >/dev/null 2>&1 || true
    echo "slurm-cluster: $*" >&2
    exit 1
}

start() {
    for p in munged mungekey slurmctld slurmd sinfo; do
        command -v "$p" >/dev/null 2>&1 ||
            PATH=$PATH:/usr/sbin:/sbin command -v "$p" >/dev/null 2>&1 ||
            die "$p not found: install slurm-wlm and munge (BCW_SLURM=1 scripts/setup.sh)"
    done
    PATH=$PATH:/usr/sbin:/sbin
    for d in munged slurmctld slurmd; do
        if live_pid "$DIR/run/$d.pid" >/dev/null; then
            die "a cluster already runs in $DIR ($d): scripts/slurm-cluster.sh stop $DIR"
        fi
    done
    mkdir -p "$DIR"
    # munged refuses group- or world-writable directories on its paths
    # (unless sticky, as /tmp is)
    chmod go-w "$DIR"
    for d in munge log run state spool tmp; do
        mkdir -p "$DIR/$d"
        chmod 0700 "$DIR/$d"
    done
    sock=$DIR/munge/munge.socket.2
    [ ${#sock} -lt 100 ] || die "$DIR is too long a path for munge's socket ($sock)"

    user=$(id -un)
    node=$(hostname -s 2>/dev/null || hostname)
    cpus=$(nproc)
    mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
    # what slurmd finds, less a margin, so that the node is not drained
    # for having less memory than configured
    mem=$((mem_kb * 9 / 10240))
    [ "$mem" -ge 100 ] || mem=100
    mkdir -p "$DIR/spool/$node"
    ports=$(free_ports) || exit 1
    # shellcheck disable=SC2086
    set -- $ports
    ctld_port=$1
    slurmd_port=$2

    # munge: its own key, socket, pid, seed and log, all in DIR/munge.
    key=$DIR/munge/munge.key
    if [ ! -s "$key" ]; then
        mungekey --create --keyfile="$key" >/dev/null 2>&1 ||
            dd if=/dev/urandom of="$key" bs=1024 count=1 2>/dev/null
    fi
    chmod 0400 "$key"
    # --force: munged refuses to run as root, and a socket in a directory
    # whose ancestors others cannot search (mktemp -d makes it 0700): both
    # warnings then, the socket reachable by this user alone as it should
    BCW_SLURM_CLUSTER=$DIR munged --force --socket="$sock" --key-file="$key" \
        --pid-file="$DIR/run/munged.pid" --log-file="$DIR/log/munged.log" \
        --seed-file="$DIR/munge/munged.seed" ||
        abort "munged did not start"
    i=0
    until munge --socket="$sock" -n </dev/null | unmunge --socket="$sock" >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -lt 50 ] || abort "munged does not answer on $sock"
        sleep 0.2
    done

    : >"$DIR/plugstack.conf"
    cat >"$DIR/slurm.conf" <<EOF
# A single-node cluster made by scripts/slurm-cluster.sh; every file in $DIR.
ClusterName=bcwalk
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
TmpFS=$DIR/tmp
PlugStackConfig=$DIR/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
SchedulerType=sched/backfill
SchedulerParameters=sched_min_interval=100000
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=walk Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

    SLURM_CONF=$DIR/slurm.conf
    BCW_SLURM_CLUSTER=$DIR
    export SLURM_CONF BCW_SLURM_CLUSTER
    # -c: a fresh state, -i: ignore a stale one's errors
    slurmctld -c -i -f "$SLURM_CONF" || abort "slurmctld did not start"
    slurmd -N "$node" -f "$SLURM_CONF" || abort "slurmd did not start"

    deadline=$(($(date +%s) + TIMEOUT))
    while :; do
        state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
        [ "$state" != idle ] || break
        [ "$(date +%s)" -lt $deadline ] ||
            abort "node $node not idle after $TIMEOUT s (sinfo: ${state:-no answer})"
        sleep 0.2
    done

    cat >"$DIR/env.sh" <<EOF
SLURM_CONF=$DIR/slurm.conf
export SLURM_CONF
EOF
    cat "$DIR/env.sh"
    echo "slurm-cluster: node $node idle ($cpus CPUs, ${mem} MB), slurmctld on port $ctld_port, slurmd on $slurmd_port" >&2
}

stop() {
    [ -d "$DIR" ] || die "no directory $DIR"
    SLURM_CONF=$DIR/slurm.conf
    export SLURM_CONF
    PATH=$PATH:/usr/sbin:/sbin
    # the jobs first, while slurmctld is there to cancel them
    if live_pid "$DIR/run/slurmctld.pid" >/dev/null && command -v scancel >/dev/null 2>&1; then
        scancel --quiet --full --user="$(id -un)" 2>/dev/null || true
        i=0
        while [ -n "$(squeue -h -o %i 2>/dev/null || true)" ] && [ $i -lt 50 ]; do
            i=$((i + 1))
            sleep 0.2
        done
    fi
    rc=0
    for d in slurmd slurmctld munged; do
        if pid=$(live_pid "$DIR/run/$d.pid"); then
            end_pid "$pid" || rc=1
        fi
    done
    # job steps and their processes left behind by slurmd (their pids: the
    # processes whose environment names this cluster's slurm.conf)
    for pid in $(cluster_pids); do
        echo "slurm-cluster: ending leftover process $pid" >&2
        end_pid "$pid" || rc=1
    done
    return $rc
}

case $cmd in
    start) start ;;
    stop) stop ;;
    *) usage ;;
esac
