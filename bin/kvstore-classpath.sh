# Sourced by bin/kvstore, bin/ycsb and bin/demo (not run directly).
# kv_classpath [MODULE]: builds MODULE (ycsb-binding, the default: the YCSB binding with kvstore, the transport
# and the native library; or benchmarks/ycsb: the YCSB benchmark and the run comparison of bin/demo, with all of
# that) when its jar is missing or older than any source it is built from, then prints the runtime class path:
# the module's jar plus its target/runtime-classpath.txt (kvstore, Netty, UCX native jar, YCSB core and its
# dependencies, ...). Build output goes to stderr.
# KV_BUILD=never skips the build check, KV_BUILD=always forces a build.

kv_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The artifactId of a module this file builds.
kv_artifact() {
    case "$1" in
        ycsb-binding) echo netty-ucx-ycsb ;;
        benchmarks/ycsb) echo netty-ucx-benchmarks-ycsb ;;
        *) echo "kvstore-classpath.sh: no module $1 (ycsb-binding or benchmarks/ycsb)" >&2; return 1 ;;
    esac
}

kv_module_jar() {
    local f artifact
    artifact=$(kv_artifact "$1") || return 1
    for f in "$kv_root/$1/target/$artifact"-*.jar; do
        case "$f" in
            *-sources.jar|*-javadoc.jar|*-tests.jar) ;;
            *) [[ -f $f ]] && { echo "$f"; return 0; } ;;
        esac
    done
    return 1
}

kv_needs_build() {
    local jar
    jar=$(kv_module_jar "$1") || return 0
    [[ -f "$kv_root/$1/target/runtime-classpath.txt" ]] || return 0
    # Any source, pom or native file newer than the jar.
    [[ -n $(find "$kv_root/pom.xml" "$kv_root/kvstore" "$kv_root/ycsb-binding/src" "$kv_root/ycsb-binding/pom.xml" \
        "$kv_root/support" "$kv_root/transport-ucx/src" "$kv_root/transport-ucx/pom.xml" \
        "$kv_root/transport-ucx-native/src" "$kv_root/$1" "$kv_root/benchmarks/pom.xml" "$kv_root/benchmarks/core" \
        -newer "$jar" -type f -not -path '*/target/*' -print -quit 2>/dev/null) ]]
}

kv_classpath() {
    local module=${1:-ycsb-binding} jar
    kv_artifact "$module" >/dev/null || return 1
    case "${KV_BUILD:-auto}" in
        never) ;;
        always) (cd "$kv_root" && mvn -B -ntp -q -Dmaven.test.skip=true -pl "$module" -am package) >&2 ;;
        *)
            if kv_needs_build "$module"; then
                echo "building $module and what it needs (mvn package, no tests) ..." >&2
                (cd "$kv_root" && mvn -B -ntp -q -Dmaven.test.skip=true -pl "$module" -am package) >&2
            fi
            ;;
    esac
    jar=$(kv_module_jar "$module") || { echo "build output not found under $kv_root/$module/target" >&2; return 1; }
    echo "$jar:$(cat "$kv_root/$module/target/runtime-classpath.txt")"
}

kv_java() {
    if [[ -n ${JAVA_HOME:-} && -x "$JAVA_HOME/bin/java" ]]; then
        echo "$JAVA_HOME/bin/java"
    else
        echo java
    fi
}
