#!/bin/sh
# Fails when the JNI library needs a glibc newer than the floor: the highest GLIBC_ symbol version that
# `objdump -T` shows must not be above it. Run by Maven in the native module's verify phase.
#   check-glibc-floor.sh LIBRARY FLOOR TOOLCHAIN
# With TOOLCHAIN gcc (the sanitize profile, or -Dnative.toolchain=gcc) the library is built against the
# machine's glibc, so the floor does not hold; it only says what the library needs.
set -eu

lib=$1
floor=$2
toolchain=$3

[ -f "$lib" ] || { echo "check-glibc-floor: $lib not found" >&2; exit 1; }
command -v objdump >/dev/null 2>&1 || { echo "check-glibc-floor: objdump not found (binutils; bin/setup installs gcc, which brings it)" >&2; exit 1; }

needed=$(objdump -T "$lib" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -u -V | tail -n 1)
[ -n "$needed" ] || { echo "check-glibc-floor: no GLIBC_ symbol versions in $lib" >&2; exit 1; }

if [ "$toolchain" != zig ]; then
    echo "check-glibc-floor: built with $toolchain: needs glibc $needed (the $floor floor holds for the zig build only)"
    exit 0
fi
# The higher of the two, by version order: the floor itself when the library needs no more.
highest=$(printf '%s\n%s\n' "$needed" "$floor" | sort -V | tail -n 1)
if [ "$highest" != "$floor" ]; then
    echo "check-glibc-floor: $(basename "$lib") needs glibc $needed, above the floor $floor; the symbols:" >&2
    objdump -T "$lib" | grep "GLIBC_$needed" >&2
    exit 1
fi
echo "check-glibc-floor: $(basename "$lib") needs glibc $needed, within the floor $floor"
