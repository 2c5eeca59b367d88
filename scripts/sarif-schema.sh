#!/bin/sh
# sarif-schema.sh - fetch the SARIF 2.1.0 JSON schema the tests validate
# `bcwalk report --sarif` against (tests/e2e/reports.py), once, into
# ${XDG_CACHE_HOME:-$HOME/.cache}/bcwalk-tests/.  OASIS's schema as
# Microsoft's @microsoft/jest-sarif package on the npm registry ships it,
# pinned to one version and checked by its SHA-256.  Run by setup.sh.
set -eu

PKG=@microsoft/jest-sarif@1.0.0-beta.0
MEMBER=package/lib/schemas/sarif-2.1.0-rtm.5.json
SHA256=2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8
DIR=${XDG_CACHE_HOME:-$HOME/.cache}/bcwalk-tests
OUT=$DIR/sarif-schema-2.1.0.json

if [ -f "$OUT" ] && echo "$SHA256  $OUT" | sha256sum -c --status; then
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "setup: npm is needed to fetch the SARIF schema the tests use ($PKG)" >&2
    exit 1
fi
mkdir -p "$DIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "setup: fetching the SARIF 2.1.0 schema ($PKG)" >&2
(cd "$TMP" && npm pack --silent "$PKG" >/dev/null 2>&1)
tar -xzf "$TMP"/*.tgz -C "$TMP" "$MEMBER"
if ! echo "$SHA256  $TMP/$MEMBER" | sha256sum -c --status; then
    echo "setup: $PKG's SARIF schema is not the one pinned (SHA-256 $SHA256)" >&2
    exit 1
fi
mv "$TMP/$MEMBER" "$OUT.tmp.$$"
mv "$OUT.tmp.$$" "$OUT"
