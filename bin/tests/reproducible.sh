#!/usr/bin/env bash
# Checks that the published jars are reproducible: builds them twice, from two copies of the working tree at
# different paths (so that an absolute path leaking into a jar or the JNI library shows), and compares every jar
# byte for byte. Prints the sha256 of each, names those that differ and exits 1 if any does.
#   bin/tests/reproducible.sh [Maven arguments]
#   bin/tests/reproducible.sh --keep DIR
#   bin/tests/reproducible.sh --compare DIR1 DIR2
# With --keep, it builds nothing: it copies the jars below from the current directory's build into DIR, in the same
# layout. With --compare, it builds nothing either: DIR1 and DIR2 hold builds of those modules made at different
# paths, and every jar of them in DIR1 is compared with DIR2's. bin/test keeps the jars lane A installed for the
# consumers (in a copy of the tree) and compares them with lane B's build of the tree itself, so that no build runs
# for this check alone.
#
# The jars: those of bom (a pom alone), transport-ucx-native (the classifier jar with the .so, its sources and
# javadoc jars), transport-ucx and grpc (each with its -sources and -javadoc jars). The other published modules use the same
# plugins and the same project.build.outputTimestamp; they are left out to keep this under two minutes.
# Extra arguments go to the Maven runs (e.g. -o).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
modules=(bom transport-ucx-native transport-ucx grpc)

if [[ ${1-} == --keep ]]; then
    keep=${2:?reproducible.sh: --keep needs a directory}
    for m in "${modules[@]}"; do
        [[ -d $m/target ]] || continue
        mkdir -p "$keep/$m/target"
        # Not the transport's -tests.jar, which is not published (nor built by the two-build mode).
        find "$m/target" -maxdepth 1 -name '*.jar' ! -name '*-tests.jar' -exec cp -t "$keep/$m/target" {} +
    done
    exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/netty-ucx-repro.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Copies the working tree to $work/$1 and builds the jars there; the log goes to $work/$1.log.
build() {
    local dir=$work/$1
    shift
    mkdir -p "$dir"
    # What git tracks or would track (committed or not), without build output; a deleted file is just absent.
    (cd "$root" && git ls-files -z --cached --others --exclude-standard \
        | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$dir"
    local list
    list=$(IFS=,; echo "${modules[*]}")
    # No test classes (-Dmaven.test.skip=true), so no -tests.jar of the transport: it carries the test helpers for
    # the reliability module, not an API, and compiling the tests would double the time.
    (cd "$dir" && mvn -B -ntp -Dmaven.test.skip=true -Dcheckstyle.skip=true -pl "$list" -am package "$@")
}

if [[ ${1-} == --compare ]]; then
    one=$(cd "${2:?reproducible.sh: --compare needs two directories}" && pwd)
    other_root=$(cd "${3:?reproducible.sh: --compare needs two directories}" && pwd)
else
    # One after the other: at once, on two cores, they took longer.
    for copy in a b; do
        build "$copy" "$@" >"$work/$copy.log" 2>&1 \
            || { echo "reproducible.sh: build $copy failed:" >&2; tail -n 40 "$work/$copy.log" >&2; exit 1; }
    done
    one=$work/a
    other_root=$work/b
fi

differ=0
count=0
for m in "${modules[@]}"; do
    for jar in "$one/$m/target/"*.jar; do
        [[ -e $jar ]] || continue
        name=${jar#"$one/"}
        other=$other_root/$name
        count=$((count + 1))
        sum_a=$(sha256sum "$jar" | cut -d' ' -f1)
        sum_b=$( [[ -e $other ]] && sha256sum "$other" | cut -d' ' -f1 || echo missing)
        if [[ $sum_a == "$sum_b" ]]; then
            echo "  same    $sum_a  $name"
        else
            echo "  DIFFER  $sum_a / $sum_b  $name"
            differ=1
            # Which entries: the listing's sizes and CRCs, then the entries themselves.
            if command -v unzip >/dev/null 2>&1 && [[ -e $other ]]; then
                diff <(unzip -v "$jar" | awk 'NR>3 {print $7, $8, $1}') \
                     <(unzip -v "$other" | awk 'NR>3 {print $7, $8, $1}') | sed 's/^/          /' || true
            fi
        fi
    done
done

if (( count == 0 )); then
    echo "reproducible.sh: no jars were built" >&2
    exit 1
fi
if (( differ )); then
    echo "reproducible.sh: the builds in $one and $other_root differ (above); a tree built before may hold" \
        "output of an earlier build: mvn clean, then build again" >&2
    exit 1
fi
echo "reproducible.sh: $count jars, the same bytes from both builds"
