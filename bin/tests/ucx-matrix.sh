#!/usr/bin/env bash
# The UCX leg of the matrix: the newest UCX (1.22, PyPI's libucx-cu12 wheel, which bin/setup unpacks under
# ~/.cache/netty-ucx) instead of Debian 12's 1.13.1, on which everything else in bin/test runs. The JNI library
# needs libucp.so.0 and libucs.so.0 by soname (no rpath), so LD_LIBRARY_PATH alone swaps UCX: nothing is rebuilt,
# the library built against 1.13.1's headers is the one users get. Run by bin/test after the transport's build
# and the consumer's install (it needs both); about 70 s on two cores.
#
# What runs, and why this subset (the whole default-test execution, 1,778 tests, passed on 1.22 once, by hand,
# 2026-12-02, with no UCX warning; about 10 minutes, too long for bin/test):
#   - the transport's tests whose outcome depends on UCX's own behaviour rather than on Java code:
#     UcxSocketEchoTest (Netty's echo conformance over UCX, and UCX against NIO both ways),
#     SendPathTest and ReceiveInPlaceTest (tagged sends and receives, the rendezvous protocol),
#     CloseSemanticsTest and HalfCloseSemanticsTest (endpoint close, flush and linger),
#     PeerDeathTest (killed and frozen peers: UCX's error handling and keepalive),
#     WorkerReplacementTest and SharedEndpointTest (workers, the shared-memory probe, shared endpoints),
#     TcpDataPathTest, UcxSettingsCheckTest (UCX_TLS), UcxNativeLogTest (UCX's log handler),
#     UcxNativeConstantsTest and UcxDatagramChannelTest; UCX's side only of the transport-agnostic ones
#     (-Dnettyucx.referenceTransports=false: NIO and epoll, their reference, do not use UCX);
#   - consumer-test/ (the installed jars, as a user's project gets them), which must print "libucp 1.22"
#     so that the leg cannot pass on the wrong UCX;
#   - no "UCX  WARN" line in either: UCX 1.20 stopped taking the error signals by default, and the library once
#     warned four times per load for giving back signals UCX never took.
# Extra arguments go to both Maven runs.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# shellcheck source=bin/tests/matrix-env.sh
source bin/tests/matrix-env.sh

[[ -e $UCX_NEWEST_LIBDIR/libucp.so.0 ]] || { echo "ucx-matrix: no UCX at $UCX_NEWEST_LIBDIR: run bin/setup" >&2; exit 1; }
export LD_LIBRARY_PATH=$UCX_NEWEST_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
version=$(project_version)
log=$(mktemp "${TMPDIR:-/tmp}/ucx-matrix.XXXXXX")
marker=$(mktemp "${TMPDIR:-/tmp}/ucx-matrix.XXXXXX")
trap 'rm -f "$log" "$marker"' EXIT

tests=UcxSocketEchoTest,SendPathTest,ReceiveInPlaceTest,CloseSemanticsTest,HalfCloseSemanticsTest,PeerDeathTest
tests+=,WorkerReplacementTest,SharedEndpointTest,TcpDataPathTest,UcxSettingsCheckTest,UcxNativeLogTest
tests+=,UcxNativeConstantsTest,UcxDatagramChannelTest

# Prints the log's end and fails when Maven failed or UCX warned.
check() {
    local what=$1 rc=$2
    if (( rc != 0 )); then
        tail -n 60 "$log" >&2
        echo "ucx-matrix: $what failed on UCX $UCX_WHEEL_VERSION" >&2
        exit 1
    fi
    # The log, and what this run's test JVMs wrote beside it (newer than the marker; UCX writes to stderr).
    local files
    mapfile -t files < <(printf '%s\n' "$log"; [[ -z ${3-} ]] || find "$3" -type f -newer "$marker")
    if grep -qs "UCX  WARN" "${files[@]}"; then
        grep -hs "UCX  WARN" "${files[@]}" | sort | uniq -c | head >&2
        echo "ucx-matrix: UCX $UCX_WHEEL_VERSION warned during $what (above)" >&2
        exit 1
    fi
}

echo "ucx-matrix: the transport's UCX-dependent tests on UCX $UCX_WHEEL_VERSION ($UCX_NEWEST_LIBDIR)"
rc=0
mvn -o -B -ntp -Dcheckstyle.skip=true -Dmaven.javadoc.skip=true -Dnettyucx.defaultTestsOnly=true \
    -Dnettyucx.referenceTransports=false -pl transport-ucx -am test -Dtest="$tests" \
    -Dsurefire.failIfNoSpecifiedTests=false "$@" >"$log" 2>&1 || rc=$?
grep -E "Tests run:.*Fail" "$log" | tail -n 1
check "the transport's tests" "$rc" transport-ucx/target/surefire-reports

echo "ucx-matrix: consumer-test on UCX $UCX_WHEEL_VERSION"
rc=0
mvn -o -B -ntp -f consumer-test/pom.xml -Dnettyucx.version="$version" verify "$@" >"$log" 2>&1 || rc=$?
check consumer-test "$rc"
loaded=$(sed -n 's/^libucp //p' "$log" | head -n 1)
if [[ $loaded != "$UCX_WHEEL_VERSION" ]]; then
    echo "ucx-matrix: the consumer loaded libucp '${loaded:-?}', not $UCX_WHEEL_VERSION" >&2
    exit 1
fi
echo "ucx-matrix: consumer-test echoed over libucp $loaded"
