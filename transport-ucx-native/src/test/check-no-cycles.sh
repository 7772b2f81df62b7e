#!/bin/sh
# Fails when the native library's files call each other in a circle.
#
# Usage: check-no-cycles.sh OBJECT...   (the library's object files, one per .c file)
#
# Reads which global symbols (functions, and data such as a path's table) each object defines and which
# it uses from others, with nm; "a.o uses a symbol that b.o defines" is an edge a -> b. Static functions,
# static inline helpers in headers, struct layouts and macros make no edge: only real calls and
# references between files do. tsort then orders the files, and reports a loop if there is one.
# The compiler's -Werror (implicit declarations are errors) makes every such call go through a header
# the caller includes.
set -eu
export LC_ALL=C

NM=${NM:-nm}
if [ "$#" -eq 0 ]; then
    echo "usage: $0 OBJECT..." >&2
    exit 2
fi

defined=$(mktemp)
edges=$(mktemp)
trap 'rm -f "$defined" "$edges"' EXIT

for obj in "$@"; do
    name=$(basename "$obj" .o)
    "$NM" -g --defined-only "$obj" | awk -v f="$name" 'NF == 3 { print $3, f }'
done | sort > "$defined"

for obj in "$@"; do
    name=$(basename "$obj" .o)
    # Every file is a node, also one that uses nothing of the others.
    echo "$name $name"
    "$NM" -u "$obj" | awk '{ print $NF }' | sort -u |
        join -o 2.2 - "$defined" | awk -v f="$name" '$1 != f { print f, $1 }'
done | sort -u > "$edges"

if ! order=$(tsort <"$edges" 2>&1 >/dev/null); then
    echo "error: the native files call each other in a circle (an edge a b: a calls b):" >&2
    echo "$order" | sed 's/^tsort: /  /' >&2
    grep -v '^\([^ ]*\) \1$' "$edges" | sed 's/^/  edge: /' >&2
    exit 1
fi
if [ -n "$order" ]; then
    echo "$order" >&2
    exit 1
fi
