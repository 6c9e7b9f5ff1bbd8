#!/usr/bin/env bash
# Issue 37, item 2: GET / and a TOTP sign-in of another user while one account and one address
# flood otpkit-server with password links and changes (every one a scrypt hash at production cost).
# Prints one JSON report on standard output, progress on standard error:
#
#   bash Benchmarks/http/password-flood.sh > flood.json
#
# Settings (environment): VICTIMS (users who sign in, half before the flood and half during it;
# 400), SECONDS_PER_PHASE (20), FLOOD_CONNECTIONS (200, as the review's concurrent links),
# RETRY_AFTER (seconds a flood connection waits after a refusal for load; 1, or 0 to hammer),
# SERVER_ARGS (more otpkit-server options, such as the production limits, which --emulator turns
# off: "--sign-up-limit-per-ip 100 --password-change-limit-per-ip 50 --password-change-limit-per-account 10"),
# BENCH_SERVER_BIN (a release otpkit-server to measure instead of building this tree's: another
# commit's, to compare), BENCH_WORK (/opt/otpkit-bench).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${BENCH_WORK:-/opt/otpkit-bench}/flood
victims=${VICTIMS:-400}
seconds=${SECONDS_PER_PHASE:-20}
connections=${FLOOD_CONNECTIONS:-200}
retry_after=${RETRY_AFTER:-1}
export PYTHONDONTWRITEBYTECODE=1

if [[ -n ${BENCH_SERVER_BIN:-} ]]; then
    server_bin=$BENCH_SERVER_BIN
else
    echo "password-flood: building otpkit-server (release)" >&2
    (cd "$root" && swift build -c release --product otpkit-server >&2)
    server_bin=$(cd "$root" && swift build -c release --show-bin-path)/otpkit-server
fi

rm -rf "$work"
mkdir -p "$work"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/sealing.key"
chmod 600 "$work/sealing.key"
# Under --emulator no request limit is on unless SERVER_ARGS gives one: then only the hashing gate
# stands between the flood and the CPU.
# shellcheck disable=SC2086
"$server_bin" --db "$work/otpkit.sqlite" --key-file "$work/sealing.key" --project-id flood-bench --emulator --port 0 ${SERVER_ARGS:-} \
    >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
trap 'kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
    [[ -s $work/server.out ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 1; }
    sleep 0.1
done
port=$(head -n 1 "$work/server.out")
echo "password-flood: server $server_bin ${SERVER_ARGS:-} on port $port, $(nproc) cores; $victims users, ${seconds}s per phase, $connections flood connections" >&2
SERVER_PID=$server_pid /usr/bin/python3 "$here/password_flood.py" "$port" "$victims" "$seconds" "$connections" "$retry_after"
