#!/bin/sh
# checksrc.sh - flags banned calls in bcwalk's own C sources (curl's
# checksrc): unbounded string writes and unchecked conversions.
cd "$(dirname "$0")/.." || exit 2
bad=$(grep -nE '\b(sprintf|vsprintf|strcpy|strcat|gets|atoi|atol|atof)[[:space:]]*\(' \
    $(git ls-files 'analyzer/*.c' 'explorer/*.c' 'solver/*.c' 'include/*.h' 2>/dev/null) /dev/null </dev/null |
    grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)|"[^"]*\b(sprintf|strcpy|strcat|atoi)[^"]*"')
if [ -n "$bad" ]; then
    echo "banned calls (use snprintf, bcw__sprintf, memcpy with a length, strtol):"
    echo "$bad"
    exit 1
fi
