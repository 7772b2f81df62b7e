#!/usr/bin/env bash
# The Netty leg of the matrix: the transport's classes, compiled against the build's Netty (root pom's netty.version,
# 4.2.17), run on the oldest Netty 4.2 it supports and on the newest served here (bin/tests/matrix-env.sh:
# NETTY_OLDEST, NETTY_NEWEST; the root pom's netty.oldestSupported and netty.newestTested say the same), as a user's
# application runs them when its framework brings another Netty: Spark 4.3 brings 4.2.13, Vert.x 5.2.3 brings 4.2.20.
# Nothing is recompiled (-Dmaven.main.skip, and the tests' classes are compiled once, on the build's Netty, since
# incremental compilation is off): every Netty jar on the tests' class path is the release under test, save
# the test-only ones the registry here does not serve for it, which stay at a release it does:
#   4.2.13: netty-testsuite and netty-pkitesting at 4.2.12 (4.2.13's are not served, and 4.2.17's test suite calls
#           PlatformDependent methods that 4.2.13 lacks); netty-buffer's test jar is 4.2.13's own;
#   4.2.20: netty-buffer's test jar at 4.2.17 and the epoll transport at 4.2.18 (4.2.20's are not served);
#           netty-testsuite and netty-pkitesting are 4.2.20's own.
# The subset: the tests that lean on Netty's API and internals rather than on UCX: Netty's conformance suite for the
# channel's contract (UcxSocketEchoTest, AutoRead, CancelWrite, ConditionalWritability,
# ShutdownOutputBySelf, Rst, WriteBeforeRegistered), the IoHandler contract of 4.2 (UcxEventLoopTest), the
# allocator over Netty's buffer internals (UcxByteBufAllocatorTest), channel options (UcxSocketOptionsTest) and
# Netty's DNS resolver on the transport's datagram channel (UcxDatagramDnsTest). About 40 s a release on two cores.
# Run by bin/test after the transport's build and tests (it needs their classes). Extra arguments go to Maven.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# shellcheck source=bin/tests/matrix-env.sh
source bin/tests/matrix-env.sh

# The range the poms state (the root pom's, which the starter's warning reads, and the BOM's) is the one run here.
for pom in pom.xml bom/pom.xml; do
    grep -q "<netty.oldestSupported>$NETTY_OLDEST</netty.oldestSupported>" "$pom" \
        && grep -q "<netty.newestTested>$NETTY_NEWEST</netty.newestTested>" "$pom" || {
        echo "netty-matrix: $pom does not name $NETTY_OLDEST and $NETTY_NEWEST (bin/tests/matrix-env.sh)" >&2
        exit 1
    }
done

log=$(mktemp "${TMPDIR:-/tmp}/netty-matrix.XXXXXX")
marker=$(mktemp "${TMPDIR:-/tmp}/netty-matrix.XXXXXX")
trap 'rm -f "$log" "$marker"' EXIT

tests=UcxSocketEchoTest,UcxSocketAutoReadTest,UcxSocketCancelWriteTest
tests+=,UcxSocketConditionalWritabilityTest,UcxSocketShutdownOutputBySelfTest,UcxSocketRstTest
tests+=,UcxWriteBeforeRegisteredTest,UcxEventLoopTest,UcxByteBufAllocatorTest,UcxSocketOptionsTest,UcxDatagramDnsTest

# The test-only artifacts each release needs pinned (above).
pins() {
    case $1 in
        4.2.13.Final) echo "-Dnetty.testsuite.version=4.2.12.Final -Dnetty.bufferTests.version=4.2.13.Final" ;;
        4.2.20.Final) echo "-Dnetty.bufferTests.version=4.2.17.Final -Dnetty.epoll.version=4.2.18.Final" ;;
        *) echo "" ;;
    esac
}

for netty in "$NETTY_OLDEST" "$NETTY_NEWEST"; do
    echo "netty-matrix: the transport's Netty-dependent tests on Netty $netty $(pins "$netty")"
    # Online, unlike the other legs: a fresh machine's local repository has no Netty release but the build's own
    # (and the agent's copies of 4.2.13's jars), and this leg needs the release's BOM and test artifacts.
    # shellcheck disable=SC2046 # pins: separate words
    if ! mvn -B -ntp -Dcheckstyle.skip=true -Dmaven.javadoc.skip=true -Dnettyucx.defaultTestsOnly=true \
        -Dmaven.main.skip=true -Dmaven.compiler.useIncrementalCompilation=false \
        -Dnetty.version="$netty" $(pins "$netty") -pl transport-ucx -am test \
        -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false "$@" >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "netty-matrix: the transport's tests failed on Netty $netty" >&2
        exit 1
    fi
    grep -E "Tests run:.*Fail" "$log" | tail -n 1
    # Each report of this run names the class path its JVM had: Netty's runtime jars must be the release under test.
    reports=$(find transport-ucx/target/surefire-reports -name 'TEST-*.xml' -newer "$marker")
    [[ -n $reports ]] || { echo "netty-matrix: the tests wrote no report" >&2; exit 1; }
    # shellcheck disable=SC2086 # one path a line, no spaces in them
    if grep -L "netty-transport-$netty.jar" $reports | grep -q . || grep -L "netty-common-$netty.jar" $reports | grep -q .; then
        echo "netty-matrix: a test JVM's class path lacks Netty $netty's netty-transport or netty-common" >&2
        exit 1
    fi
    touch "$marker"
done
