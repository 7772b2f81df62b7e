#!/usr/bin/env bash
# A release, short of the upload: the release profile (root pom and bom/pom.xml) with the aarch64 cross build
# (-Pcross-aarch64), every published module signed with gpg by a throwaway key made for the run (in a GNUPGHOME of
# its own), and `deploy:deploy` into a local directory instead of the Central Publisher Portal (the portal's plugin
# uploads in the deploy phase, which this run stops before). Then it checks what a release would publish:
#   - each published module is there (the parent, bom, transport-ucx-native, transport-ucx, grpc, vertx,
#     reactor-netty, micrometer, spring-boot-starter) and no unpublished one (support, kvstore, benchmarks, ...);
#   - each jar has its -sources.jar and -javadoc.jar, and every file its .asc, which gpg verifies;
#   - each jar of classes or of a library has a module descriptor (none is an automatic module; the transport's
#     -tests.jar of test helpers, in its packages, is for the class path);
#   - the native module has both classifiers, each holding the library of its architecture (read from the ELF header);
#   - each pom carries what Central requires (name, description, url, licenses, developers, scm: the last four may
#     come from the published parent).
# Run by bin/test at the end of its lane A, in a copy of the tree where the transport, grpc and the aarch64 library are
# built; about 60 s on two cores then. Extra arguments go to Maven.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# shellcheck source=bin/tests/matrix-env.sh
source bin/tests/matrix-env.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/release-dry-run.XXXXXX")
trap 'gpgconf --homedir "$work/gnupg" --kill all >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
repo=$work/repo
export GNUPGHOME=$work/gnupg
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-generate-key 'netty-ucx release dry run <dry-run@invalid>' ed25519 sign 1d \
    2>/dev/null

published=(netty-ucx-parent netty-ucx-bom netty-ucx-transport-native netty-ucx-transport netty-ucx-grpc netty-ucx-vertx
    netty-ucx-reactor-netty netty-ucx-micrometer netty-ucx-spring-boot-starter)

modules=.,bom,transport-ucx-native,transport-ucx,grpc,vertx,reactor-netty,micrometer,spring-boot-starter
echo "release-dry-run: mvn -Prelease,cross-aarch64 verify deploy:deploy, signed with a throwaway key, into $repo"
# Not offline: deploy refuses to run offline (-nsu: nothing else is looked up remotely for the snapshot).
# The published modules alone (-pl): they depend on no other, and the others would only skip signing and deploy.
if ! mvn -nsu -B -ntp -Prelease,cross-aarch64 -Dnative.aarch64.sysroot="$ARM64_SYSROOT" -DskipTests \
    -Dcheckstyle.skip=true -pl "$modules" verify deploy:deploy -DaltDeploymentRepository=dry-run::file://"$repo" "$@" \
    >"$work/log" 2>&1; then
    tail -n 60 "$work/log" >&2
    echo "release-dry-run: the build failed" >&2
    exit 1
fi

failed=0
fail() {
    echo "release-dry-run: $*" >&2
    failed=1
}

base=$repo/io/github/nettyucx
found=$(find "$base" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
expected=$(printf '%s\n' "${published[@]}" | sort)
[[ $found == "$expected" ]] || fail "published $(echo $found), expected $(echo $expected)"

for artifact in "${published[@]}"; do
    dir=$(find "$base/$artifact" -mindepth 1 -maxdepth 1 -type d | head -n 1)
    [[ -n $dir ]] || continue
    pom=$(find "$dir" -name '*.pom' | head -n 1)
    # url, licenses, developers and scm may come from the parent, which is published too; name and description are
    # each module's own.
    for tag in name description url licenses developers scm; do
        grep -Eq "<$tag[ >]" "$pom" && continue
        if [[ $tag != name && $tag != description ]] && grep -q "<artifactId>netty-ucx-parent</artifactId>" "$pom" \
            && grep -Eq "<$tag[ >]" "$(find "$base/netty-ucx-parent" -name '*.pom' | head -n 1)"; then
            continue
        fi
        fail "$artifact: its pom has no <$tag>, nor its parent's"
    done
    for file in "$dir"/*.pom "$dir"/*.jar; do
        [[ -e $file ]] || continue
        if [[ ! -e $file.asc ]]; then
            fail "$(basename "$file"): not signed"
        elif ! gpg --batch --quiet --verify "$file.asc" "$file" 2>/dev/null; then
            fail "$(basename "$file"): its signature does not verify"
        fi
    done
    # A module descriptor in every jar of classes or a library (Java 17's view of the multi-release jars); not the
    # transport's -tests.jar, test helpers in the transport's own packages, which only a class path can hold.
    for file in "$dir"/*.jar; do
        [[ -e $file && $file != *-sources.jar && $file != *-javadoc.jar && $file != *-tests.jar ]] || continue
        description=$(jar --describe-module --file "$file" --release 17 2>&1 || true)
        [[ $description == *module-info.class* ]] \
            || fail "$(basename "$file"): no module descriptor (an automatic module)"
    done
    jars=$(find "$dir" -name '*.jar' | wc -l)
    if (( jars > 0 )); then
        ls "$dir"/*-sources.jar >/dev/null 2>&1 || fail "$artifact: no -sources.jar"
        ls "$dir"/*-javadoc.jar >/dev/null 2>&1 || fail "$artifact: no -javadoc.jar"
    fi
    echo "  $artifact: $(find "$dir" -name '*.pom' -o -name '*.jar' | sed 's:.*/::; s/^'"$artifact"'-[^-]*-[0-9.]*-[0-9]*//' \
        | sort | paste -sd' ')"
done

# The library of each architecture, in the jar of its classifier: the ELF header's machine field.
for pair in linux-x86_64:x86-64 linux-aarch_64:AArch64; do
    classifier=${pair%%:*} machine=${pair#*:}
    jar=$(find "$base/netty-ucx-transport-native" -name "*-$classifier.jar" | head -n 1)
    if [[ -z $jar ]]; then
        fail "no netty-ucx-transport-native jar of classifier $classifier"
        continue
    fi
    arch=${classifier#linux-}
    unzip -p "$jar" "META-INF/native/libnetty_ucx_native_$arch.so" >"$work/lib.so" 2>/dev/null || true
    readelf -h "$work/lib.so" 2>/dev/null | grep -qi "Machine:.*$machine" \
        || fail "$(basename "$jar"): no $machine library at META-INF/native/libnetty_ucx_native_$arch.so"
done

if (( failed )); then
    echo "release-dry-run: the release would be wrong (above)" >&2
    exit 1
fi
echo "release-dry-run: ${#published[@]} modules, every file signed and verified, both native classifiers"
