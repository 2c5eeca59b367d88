#!/bin/sh
# checksrc.sh - flags banned calls in bcwalk's own C and C++ sources
# (curl's checksrc): unbounded string writes and unchecked conversions.
#
#   tests/checksrc.sh [ROOT]     ROOT: the source tree (default: this one)
#
# It walks the source folders themselves, not git's index, so a fresh
# clone, an exported tarball and a work tree are checked alike; finding no
# source file at all is an error, so it cannot pass by checking nothing.
# Exit 0: clean; 1: banned calls (listed); 2: no sources found.
root=${1:-"$(dirname "$0")/.."}
cd "$root" || exit 2

# every library folder there is: a new core/ included when it appears
dirs=""
for d in analyzer solver explorer cli include core; do
    if [ -d "$d" ]; then
        dirs="$dirs $d"
    fi
done
sources() {
    # shellcheck disable=SC2086
    [ -n "$dirs" ] && find $dirs -type f \( -name '*.c' -o -name '*.h' \
        -o -name '*.cpp' -o -name '*.hpp' \) "$@"
}

n=$(sources | wc -l)
if [ "$n" -eq 0 ]; then
    echo "checksrc: no C or C++ sources under $(pwd)" \
         "(looked in analyzer/ solver/ explorer/ cli/ include/ core/)" >&2
    exit 2
fi

bad=$(sources -exec grep -nHE \
        '\b(sprintf|vsprintf|strcpy|strcat|gets|atoi|atol|atof)[[:space:]]*\(' \
        {} + </dev/null |
    grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)|"[^"]*\b(sprintf|strcpy|strcat|atoi)[^"]*"' |
    sort)
if [ -n "$bad" ]; then
    echo "banned calls (use snprintf, bcw__sprintf, memcpy with a length, strtol):"
    echo "$bad"
    exit 1
fi
echo "checksrc: $n files, no banned calls"
