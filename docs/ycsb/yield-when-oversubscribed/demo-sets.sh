#!/usr/bin/env bash
# Sets of `bin/demo --runs 5` one after the other, each set named VARIANT-LABEL, where VARIANT is how the UCX
# JVMs yield at once: auto (-Dio.github.nettyucx.adaptiveYieldAtOnce=auto), never (=false, the default on several
# CPUs until 2026-11-29, morning) or always (=true); gated (=auto, the default on several CPUs since: auto that also
# stops while the loop's yields last slices). The evening runs of 2026-11-29 had auto as the default and gave it no
# option; their auto had no such gate. The morning's ungated-* sets ran that ungated rule through a temporary option
# value (auto-any) of the build under test, which was not kept. slice-* (the default waiting, whose loops ask for a
# short time slice while they sleep at once, since 2026-11-29) and noslice-* (-Dio.github.nettyucx.loopSliceMicros=0)
# are the sets of docs/benchmarks/shared-machine/loop-slice.
#   docs/ycsb/yield-when-oversubscribed/demo-sets.sh OUTDIR auto-c never-c auto-d never-d
# Each set's output goes to OUTDIR/demo-SET.log; summarize.py makes the tables from them.
set -euo pipefail
out=$1; shift
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
mkdir -p "$out"
for set in "$@"; do
    case $set in
        auto*|gated*) opts="-Dio.github.nettyucx.adaptiveYieldAtOnce=auto" ;;
        never*) opts="-Dio.github.nettyucx.adaptiveYieldAtOnce=false" ;;
        always*) opts="-Dio.github.nettyucx.adaptiveYieldAtOnce=true" ;;
        slice*) opts="" ;;
        noslice*) opts="-Dio.github.nettyucx.loopSliceMicros=0" ;;
        *) echo "demo-sets.sh: $set is not auto-*, gated-*, never-*, always-*, slice-* or noslice-*" >&2; exit 2 ;;
    esac
    echo "=== $set $(date +%T)"
    KV_BUILD=never UCX_JVM_OPTS="$opts" bin/demo --runs 5 > "$out/demo-$set.log" 2>&1
    grep -E "^run|x  " "$out/demo-$set.log"
done
