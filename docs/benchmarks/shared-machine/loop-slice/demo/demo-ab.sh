#!/usr/bin/env bash
# bin/demo --runs 5 in sets, with the loops' short time slice (slice-*, the default) and without it (noslice-*:
# -Dio.github.nettyucx.loopSliceMicros=0 in the UCX JVMs), each set's output in OUTDIR/demo-SET.log.
#   docs/benchmarks/shared-machine/loop-slice/demo/demo-ab.sh OUTDIR slice-a noslice-a noslice-b slice-b
set -euo pipefail
out=$1; shift
cd "$(dirname "${BASH_SOURCE[0]}")/../../../../.."
mkdir -p "$out"
for set in "$@"; do
    case $set in
        slice*) opts="" ;;
        noslice*) opts="-Dio.github.nettyucx.loopSliceMicros=0" ;;
        *) echo "demo-ab.sh: $set is not slice-* or noslice-*" >&2; exit 2 ;;
    esac
    echo "=== $set $(date +%T)"
    KV_BUILD=never UCX_JVM_OPTS="$opts" bin/demo --runs 5 > "$out/demo-$set.log" 2>&1
    grep -E "^run|x  " "$out/demo-$set.log"
done
