# Sourced by bin/kvstore, bin/ycsb, bin/demo and bin/bench-ycsb (not run directly).
# kv_classpath: builds the YCSB binding (with kvstore, the transport and the native library)
# when its jar is missing or older than any source it is built from, then prints the runtime
# class path: the binding jar plus target/runtime-classpath.txt (kvstore, Netty, UCX native jar,
# YCSB core and its dependencies, chart library). Build output goes to stderr.
# KV_BUILD=never skips the build check, KV_BUILD=always forces a build.

kv_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

kv_binding_jar() {
    local f
    for f in "$kv_root"/ycsb-binding/target/netty-ucx-ycsb-*.jar; do
        case "$f" in
            *-sources.jar|*-javadoc.jar|*-tests.jar) ;;
            *) [[ -f $f ]] && { echo "$f"; return 0; } ;;
        esac
    done
    return 1
}

kv_needs_build() {
    local jar
    jar=$(kv_binding_jar) || return 0
    [[ -f "$kv_root/ycsb-binding/target/runtime-classpath.txt" ]] || return 0
    # Any source, pom or native file newer than the jar.
    [[ -n $(find "$kv_root/pom.xml" "$kv_root/kvstore" "$kv_root/ycsb-binding/src" "$kv_root/ycsb-binding/pom.xml" \
        "$kv_root/support" "$kv_root/transport-ucx/src" "$kv_root/transport-ucx/pom.xml" \
        "$kv_root/transport-ucx-native/src" \
        -newer "$jar" -type f -not -path '*/target/*' -print -quit 2>/dev/null) ]]
}

kv_classpath() {
    local jar
    case "${KV_BUILD:-auto}" in
        never) ;;
        always) (cd "$kv_root" && mvn -B -ntp -q -Dmaven.test.skip=true -pl ycsb-binding -am package) >&2 ;;
        *)
            if kv_needs_build; then
                echo "building kvstore and the YCSB binding (mvn package, no tests) ..." >&2
                (cd "$kv_root" && mvn -B -ntp -q -Dmaven.test.skip=true -pl ycsb-binding -am package) >&2
            fi
            ;;
    esac
    jar=$(kv_binding_jar) || { echo "build output not found under $kv_root/ycsb-binding/target" >&2; return 1; }
    echo "$jar:$(cat "$kv_root/ycsb-binding/target/runtime-classpath.txt")"
}

kv_java() {
    if [[ -n ${JAVA_HOME:-} && -x "$JAVA_HOME/bin/java" ]]; then
        echo "$JAVA_HOME/bin/java"
    else
        echo java
    fi
}
