#!/usr/bin/env bash
# bin/demo --runs 1, N times in a row, beside two busy shell loops that this script starts and stops (issue 31:
# bin/demo passes 10 of 10 runs beside two busy processes). Prints each invocation's exit status and result lines.
#   docs/ycsb/startup-by-default/demo-beside-busy.sh N > LOG
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
busy=()
trap '((${#busy[@]})) && kill "${busy[@]}" 2>/dev/null' EXIT
for _ in 1 2; do
    (while :; do :; done) &
    busy+=($!)
done
out=$(mktemp)
passed=0
for ((i = 1; i <= $1; i++)); do
    KV_BUILD=never bin/demo --runs 1 > "$out" 2>&1
    status=$?
    echo "== invocation $i: exit $status"
    grep -E "^run |x  " "$out"
    if ((status == 0)); then
        passed=$((passed + 1))
    else
        tail -n 20 "$out"
    fi
done
rm -f "$out"
echo "== $passed of $1 invocations passed"
