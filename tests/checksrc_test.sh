#!/bin/sh
# checksrc_test.sh - shows that checksrc.sh checks something: on a copy of
# the sources (no git checkout) it passes; with a banned call added, in a
# nested folder or in a new core/ folder, it fails and names the file; on
# a tree without sources it fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
check="$here/checksrc.sh"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "checksrc_test: $*" >&2
    exit 1
}

mkdir "$tmp/tree" "$tmp/empty"
for d in analyzer solver explorer cli include core; do
    if [ -d "$here/../$d" ]; then
        cp -R "$here/../$d" "$tmp/tree/"
    fi
done

sh "$check" "$tmp/tree" >"$tmp/out" 2>&1 ||
    fail "the copy of the sources should pass: $(cat "$tmp/out")"

printf '#include <stdio.h>\nvoid f(char *b, int n)\n{\n    sprintf(b, "%%d", n);\n}\n' \
    >"$tmp/tree/explorer/runtime/banned.c"
sh "$check" "$tmp/tree" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "sprintf( in explorer/runtime: exit $rc, not 1"
grep -q '^explorer/runtime/banned.c:4:' "$tmp/out" ||
    fail "the report does not name banned.c:4: $(cat "$tmp/out")"
rm "$tmp/tree/explorer/runtime/banned.c"

mkdir -p "$tmp/tree/core"
printf 'int g(const char *s) { return atoi(s); }\n' >"$tmp/tree/core/banned.h"
sh "$check" "$tmp/tree" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "atoi( in core/: exit $rc, not 1"
grep -q '^core/banned.h:1:' "$tmp/out" ||
    fail "the report does not name core/banned.h:1: $(cat "$tmp/out")"

sh "$check" "$tmp/empty" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "a tree without sources: exit $rc, not 2"
echo "checksrc_test: passes the sources, fails sprintf( and atoi(, fails no sources"
