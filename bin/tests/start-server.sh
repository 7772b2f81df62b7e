#!/usr/bin/env bash
# Starts servers back to back under CPU load, as bin/demo does (the same name again and again), and checks
# that the port read for each start is the one that start's server printed, never an earlier server's.
# The servers are stand-ins that print their listening line after a short random delay. Run by bin/test.
#   bin/tests/start-server.sh [STARTS]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bin/start-server.sh
source "$here/start-server.sh"

starts=${1:-40}
work=$(mktemp -d "${TMPDIR:-/tmp}/start-server-test.XXXXXX")
busy=()
cleanup() {
    [[ -n ${server_pid:-} ]] && kill "$server_pid" 2>/dev/null || true
    ((${#busy[@]})) && kill "${busy[@]}" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Two shell loops that never sleep per core, so that forks are slow.
for ((i = 0; i < 2 * $(nproc); i++)); do
    (while :; do :; done) &
    busy+=($!)
done

passed=0
failed=0
for ((i = 1; i <= starts; i++)); do
    name=$([[ $((i % 2)) == 1 ]] && echo ucx || echo epoll)
    expected=$((20000 + i))
    start_server_process "$work" "$name" bash -c \
        'sleep "0.0$((RANDOM % 5))"; echo "listening on 127.0.0.1:$1 over stand-in"; exec sleep 60' _ "$expected"
    if [[ $port == "$expected" ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "start $i ($name): read port $port, the server listens on $expected" >&2
    fi
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
done
echo "start-server: $passed passed, $failed failed"
((failed == 0))
