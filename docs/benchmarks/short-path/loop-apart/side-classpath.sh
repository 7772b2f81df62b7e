#!/usr/bin/env bash
# The echo benchmarks' class path for one side of an A/B run: side-classpath.sh SIDE. With a worktree at
# /work/wt-SIDE (built with mvn -o -pl transport-ucx-native,transport-ucx -am package -DskipTests), that worktree's
# transport and native jars replace this tree's; otherwise this tree's as it is.
set -u
cd /work/main
cp_main="benchmarks/echo/target/classes:$(cat benchmarks/echo/target/runtime-classpath.txt)"
if [[ ! -d /work/wt-$1 ]]; then
  echo "$cp_main"
  exit 0
fi
cp_side=${cp_main//\/work\/main\/transport-ucx\/target/\/work\/wt-$1\/transport-ucx\/target}
cp_side=${cp_side//\/work\/main\/transport-ucx-native\/target/\/work\/wt-$1\/transport-ucx-native\/target}
[[ $cp_side != "$cp_main" ]] || { echo "class path not swapped" >&2; exit 1; }
echo "$cp_side"
