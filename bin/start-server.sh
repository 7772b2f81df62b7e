# shellcheck shell=bash
# Sourced by scripts that start a server in the background and need the port it listens on.
#   start_server_process LOG_DIR NAME COMMAND [ARGS...]
# starts COMMAND with its output in a log file of its own under LOG_DIR, waits (up to 30 s) for its line
# "listening on HOST:PORT over ...", and sets server_pid, server_log and port. Fails (returns 1, with the
# log on stderr) when the server exits first or never prints the line.
# Each start gets a new log file, created empty before the server starts: the shell opens a redirection
# only in the forked child, so a log reused from an earlier server could be read in the meantime, with
# that dead server's port; the busier the machine, the wider that window.

server_starts=0

start_server_process() {
    local dir=$1 name=$2 line="" i
    shift 2
    server_starts=$((server_starts + 1))
    server_log="$dir/server-$server_starts-$name.log"
    : >"$server_log"
    "$@" >"$server_log" 2>&1 &
    server_pid=$!
    for ((i = 0; i < 300; i++)); do
        # Wait for the whole line: the JVM may write it in pieces.
        line=$(grep -m1 -E 'listening on .*:[0-9]+ over' "$server_log" 2>/dev/null || true)
        [[ -n $line ]] && break
        if ! kill -0 "$server_pid" 2>/dev/null; then
            server_pid=""
            echo "the $name server exited: $(cat "$server_log")" >&2
            return 1
        fi
        sleep 0.1
    done
    if [[ -z $line ]]; then
        echo "the $name server did not start within 30 s: $(cat "$server_log")" >&2
        return 1
    fi
    port=$(sed -E 's/.*listening on [^ ]*:([0-9]+) .*/\1/' <<<"$line")
}
