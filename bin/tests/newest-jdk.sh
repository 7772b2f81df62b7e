#!/usr/bin/env bash
# Prints the home of the newest JDK under /usr/lib/jvm (or the directories in NETTYUCX_JDK_DIRS, separated by
# spaces) whose feature release is newer than that of the `java` on PATH, or nothing when there is none. A JDK is a
# directory with bin/java, bin/javac and a `release` file saying JAVA_VERSION.
set -euo pipefail

feature() {
    # JAVA_VERSION="25.0.3" -> 25; "1.8.0_402" -> 8
    local v=$1
    v=${v#1.}
    echo "${v%%[.+-]*}"
}

default_version=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
default=$(feature "${default_version:-0}")

best=""
best_feature=$default
for home in ${NETTYUCX_JDK_DIRS:-/usr/lib/jvm/*}; do
    [[ -x $home/bin/java && -x $home/bin/javac && -f $home/release ]] || continue
    version=$(sed -n 's/^JAVA_VERSION="\(.*\)"$/\1/p' "$home/release")
    [[ -n $version ]] || continue
    f=$(feature "$version")
    [[ $f =~ ^[0-9]+$ ]] || continue
    if (( f > best_feature )); then
        best=$home
        best_feature=$f
    fi
done
[[ -z $best ]] || echo "$best"
