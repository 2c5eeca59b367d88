#!/bin/sh
# clean-install.sh [DIR] - `make install` and `make demo` on a clean
# Debian 12 without chromium or npm (issue 31): debootstraps bookworm
# (minbase) into DIR (default /tmp/bcw-clean) unless it is there, puts a
# clone of this repository's HEAD in it, installs make alone and runs
# `make install PREFIX=/usr/local` and `make demo` inside, so setup.sh
# must bring everything else.  Then the installed bcwalk must run, and
# neither chromium nor npm nor nodejs may have come in.  Not part of
# `make check`: it needs root, debootstrap and the network.  A DIR kept
# from an earlier run is used again, with what that run installed.
set -eu

dir=${1:-/tmp/bcw-clean}
MIRROR=http://deb.debian.org/debian
PREFIX=/usr/local
SRC=/root/bcwalk

fail() {
    echo "clean-install: FAIL: $*" >&2
    exit 1
}

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, mount)"
command -v debootstrap >/dev/null ||
    fail "no debootstrap: apt-get install debootstrap"
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)

# the chroot's mounts, undone on any exit
mounted=""
cleanup() {
    for m in $mounted; do
        umount "$m" 2>/dev/null || umount -l "$m" || true
    done
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# seconds since `start`, for the step just ended
start=0
took() {
    echo "clean-install: $1 took $(($(date +%s) - start))s" >&2
}

if [ -x "$dir/usr/bin/apt-get" ] && [ ! -d "$dir/debootstrap" ]; then
    echo "clean-install: using the bookworm already in $dir" >&2
elif [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    fail "$dir holds something other than a finished debootstrap: remove it"
else
    start=$(date +%s)
    debootstrap --variant=minbase bookworm "$dir" "$MIRROR" >&2 ||
        fail "debootstrap bookworm $dir $MIRROR"
    took debootstrap
fi

mount -t proc proc "$dir/proc"
mounted="$dir/proc"
# debootstrap makes /dev's nodes itself, except in some containers
if [ ! -c "$dir/dev/null" ]; then
    mount --bind /dev "$dir/dev"
    mounted="$dir/dev $mounted"
fi
cp /etc/resolv.conf "$dir/etc/resolv.conf"

# what the build sees is what is committed, nothing of this work tree
rm -rf "$dir$SRC"
git clone -q --no-hardlinks "$top" "$dir$SRC"
echo "clean-install: $(git -C "$dir$SRC" log -1 --format='%h %s')" >&2

# runs a command in the chroot with a clean environment
in_root() {
    chroot "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        DEBIAN_FRONTEND=noninteractive "$@"
}

# runs a make target in the chroot's clone, its output also in
# $dir/root/make-TARGET.log; fails with the log's end
run_make() {
    target=$1
    log="$dir/root/make-$target.log"
    shift
    start=$(date +%s)
    status=$(mktemp)
    {
        rc=0
        in_root make -C "$SRC" "$target" "$@" || rc=$?
        echo "$rc" >"$status"
    } 2>&1 | tee "$log"
    rc=$(cat "$status")
    rm -f "$status"
    took "make $target"
    [ "$rc" -eq 0 ] || fail "make $target exited $rc (log: $log)"
}

start=$(date +%s)
in_root apt-get update -q >&2 || fail "apt-get update in the chroot"
in_root apt-get install -y -q --no-install-recommends make >&2 ||
    fail "apt-get install make in the chroot"
took "apt-get install make"

run_make install PREFIX="$PREFIX"
grep '^setup: installing' "$dir/root/make-install.log" >&2 ||
    echo "clean-install: setup installed nothing" >&2
run_make demo

version=$(in_root "$PREFIX/bin/bcwalk" --version) ||
    fail "$PREFIX/bin/bcwalk --version"
echo "clean-install: $PREFIX/bin/bcwalk --version: $version" >&2
# the installed command builds workers from its installed runtime
in_root "$PREFIX/bin/bcwalk" explore "$SRC/build/examples/bstack.bc" \
    --unit bstack --walk protocol --depth 2 >/dev/null ||
    fail "$PREFIX/bin/bcwalk explore on examples/bstack.bc"

for p in chromium npm nodejs; do
    # shellcheck disable=SC2016 # dpkg-query's ${Status}, not the shell's
    if in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
        grep -q "install ok installed"; then
        fail "$p is installed: make install/demo must not need it"
    fi
done
for c in chromium npm node; do
    if in_root sh -c "command -v $c" >/dev/null; then
        fail "$c is on the chroot's PATH"
    fi
done

echo "clean-install: $(du -sxh "$dir" | cut -f1) in $dir" >&2
echo "clean-install: OK: make install and make demo on a clean bookworm" >&2
