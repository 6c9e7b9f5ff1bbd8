#!/usr/bin/env bash
# The HTTP benchmark of issue 18: otpkit-server (SQLite and PostgreSQL) beside privacyIDEA, with
# wrk, in one run. Prints wrk's output and progress on standard error and the Markdown report on
# standard output:
#
#   bash Benchmarks/http/run.sh > report.md
#
# Settings (environment): OTPKIT_USERS (users per store: each gives one accepted code and four
# wrong ones, so a run needs more users than the server answers in DURATION seconds), PI_USERS,
# DURATION (seconds per run), CONNECTIONS (wrk's, for otpkit-server), PI_CONNECTIONS, BENCH_WORK
# (where everything outside the repository goes), BENCH_PERF=1 (profile otpkit-server with perf at
# 499 Hz during each SQLite run), BENCH_ONLY (a space-separated subset of "sqlite postgres
# privacyidea", to work on one part; the report compares only what ran together), SIGNING_ALGORITHM
# (RS256, the default, or ES256: the algorithm of otpkit-server's ID token signing key),
# BENCH_SERVER_BIN (a release binary to measure instead of building this tree's, to compare two).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${BENCH_WORK:-/opt/otpkit-bench}
otpkit_users=${OTPKIT_USERS:-10000}
pi_users=${PI_USERS:-400}
duration=${DURATION:-5}
signing_algorithm=${SIGNING_ALGORITHM:-RS256}
connections=${CONNECTIONS:-64}
# privacyIDEA runs two synchronous workers: more connections than twice that only wait in
# gunicorn's queue, and past wrk's timeout they would count as errors rather than as slow answers.
pi_connections=${PI_CONNECTIONS:-4}
wrk_threads=2
python=/usr/bin/python3
# The helpers run from this folder; no __pycache__ left in the repository.
export PYTHONDONTWRITEBYTECODE=1
run_dir=$work/run
results=$run_dir/results.jsonl

say() { echo "http-bench: $*" >&2; }

install_missing() {
    local missing=()
    command -v wrk >/dev/null || missing+=(wrk)
    command -v perf >/dev/null || [[ ${BENCH_PERF:-0} != 1 ]] || missing+=(linux-perf)
    if ((${#missing[@]})); then
        say "installing ${missing[*]}"
        apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    # PostgreSQL and the rest of what the package builds with.
    bash "$root/.ci/install" >&2
    # A venv left by an earlier run is kept only if it holds exactly these versions.
    if ! "$work/privacyidea/bin/python" -c \
        'import importlib.metadata as m; assert (m.version("privacyidea"), m.version("gunicorn")) == ("3.14", "27.0.1")' 2>/dev/null; then
        say "installing privacyIDEA 3.14 and gunicorn 27.0.1 into $work/privacyidea"
        mkdir -p "$work"
        rm -rf "$work/privacyidea"
        "$python" -m venv "$work/privacyidea"
        "$work/privacyidea/bin/pip" install -q 'privacyidea==3.14' 'gunicorn==27.0.1' >&2
    fi
}

build() {
    if [[ -n ${BENCH_SERVER_BIN:-} ]]; then
        server_bin=$BENCH_SERVER_BIN
        say "using $server_bin"
        return
    fi
    say "building otpkit-server (release)"
    (cd "$root" && swift build -c release --product otpkit-server >&2)
    server_bin=$(cd "$root" && swift build -c release --show-bin-path)/otpkit-server
}

# Starts otpkit-server with "$@"; sets server_pid and server_port once it prints its port.
start_server() {
    local log=$1
    shift
    : >"$log.out"
    "$server_bin" "$@" --port 0 >"$log.out" 2>"$log.err" &
    server_pid=$!
    for _ in $(seq 1 600); do
        if [[ -s $log.out ]]; then
            server_port=$(head -n 1 "$log.out")
            return 0
        fi
        kill -0 "$server_pid" 2>/dev/null || { cat "$log.err" >&2; return 1; }
        sleep 0.1
    done
    say "otpkit-server did not print its port"
    return 1
}

stop_server() {
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
}

# CPU time (user + system, in clock ticks) the processes "$@" have used so far, threads included.
cpu_ticks() {
    local total=0 pid fields
    for pid in "$@"; do
        # Fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis.
        fields=$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null) || continue
        set -- $fields
        total=$((total + ${12} + ${13}))
    done
    echo "$total"
}

# wrk over a file of bodies; appends the result, labelled, to results.jsonl, with the CPU time the
# serving processes (the PIDs after the first seven arguments) spent meanwhile: on a machine shared
# with builds the rates follow the CPU left over, the CPU per answer much less.
measure() {
    local label=$1 port=$2 path=$3 type=$4 bodies=$5 kind=$6 clients=$7
    shift 7
    local pids=("$@")
    say "$label: wrk -t$wrk_threads -c$clients -d${duration}s over $(wc -l <"$bodies") bodies"
    local output before after
    before=$(cpu_ticks "${pids[@]}")
    output=$(wrk -t"$wrk_threads" -c"$clients" -d"${duration}s" --timeout 10s -s "$here/walk.lua" "http://127.0.0.1:$port" \
        -- "$bodies" "$path" "$type" "$wrk_threads" "$kind")
    after=$(cpu_ticks "${pids[@]}")
    echo "$output" >&2
    local line
    line=$(grep '^RESULT ' <<<"$output" | sed 's/^RESULT //')
    printf '{"label":"%s","clients":%d,"cpu_seconds":%s,"wrk":%s}\n' "$label" "$clients" \
        "$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f", t / hz }')" "$line" >>"$results"
}

# With BENCH_PERF=1, a profile of the server during each SQLite run, at a low rate (499 Hz) so
# that the run it watches is hardly slowed.
profile_start() {
    perf_pid=
    [[ ${BENCH_PERF:-0} == 1 && $1 == sqlite ]] || return 0
    perf record -F 499 -g -p "$server_pid" -o "$run_dir/perf-$2.data" -- sleep "$((duration + 1))" >/dev/null 2>&1 &
    perf_pid=$!
}

profile_end() {
    [[ -n $perf_pid ]] || return 0
    wait "$perf_pid" || true
    perf_pid=
}

# One store: users enrolled and pending credentials made under --emulator (the unsigned IdP
# credential), then the server restarted as in production, the runs measured against that one.
otpkit_store() {
    local name=$1 db=$2
    shift 2
    local dir=$run_dir/$name
    mkdir -p "$dir"
    say "$name: enrolling $otpkit_users users"
    # The signing key file is made here, with the algorithm asked for; the measured server reuses it.
    start_server "$dir/setup" --db "$db" --key-file "$run_dir/sealing.key" --project-id bench-project --emulator \
        --signing-algorithm "$signing_algorithm" "$@"
    (cd "$here" && "$python" otpkit_setup.py enroll "$server_port" "$otpkit_users" "$dir/users.jsonl")
    # Pending credentials live 5 minutes: they are made last, just before the runs.
    say "$name: two pending credentials per user"
    (cd "$here" && "$python" otpkit_setup.py mint "$server_port" "$dir/users.jsonl" "$dir/pending.jsonl")
    stop_server
    # Production mode: no --emulator, a real API key. The per-address and per-account limits are
    # off (0): one wrk host would pass the default 150 codes per address in the first
    # milliseconds, and raised limits still write two counters per code (see README.md).
    start_server "$dir/measured" --db "$db" --key-file "$run_dir/sealing.key" --project-id bench-project --api-key bench-key \
        --verification-limit-per-ip 0 --verification-limit-per-account 0 "$@"
    (cd "$here" && "$python" otpkit_setup.py bodies "$dir/pending.jsonl" "$dir/valid.txt" "$dir/wrong.txt" "$dir/forged.txt")
    local path=/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize?key=bench-key
    # The database's processes work for the server too: PostgreSQL's run as the user postgres.
    local serving=("$server_pid")
    if [[ $name == postgres ]]; then mapfile -t -O 1 serving < <(pgrep -u postgres); fi
    profile_start "$name" valid
    measure "otpkit $name, fresh valid codes" "$server_port" "$path" application/json "$dir/valid.txt" otpkit "$connections" \
        "${serving[@]}"
    profile_end
    if [[ $name == postgres ]]; then mapfile -t -O 1 serving < <(pgrep -u postgres); fi
    profile_start "$name" wrong
    measure "otpkit $name, wrong codes" "$server_port" "$path" application/json "$dir/wrong.txt" otpkit "$connections" \
        "${serving[@]}"
    profile_end
    # The floor of a refusal on this machine: the same request with a forged pending credential,
    # refused before the store is read (HTTP, JSON and the credential's MAC, nothing else).
    measure "otpkit $name, forged credentials" "$server_port" "$path" application/json "$dir/forged.txt" otpkit "$connections" \
        "$server_pid"
    stop_server
}

privacyidea() {
    local dir=$run_dir/privacyidea bin=$work/privacyidea/bin
    mkdir -p "$dir"
    # privacyIDEA's documented pi.cfg for a SQLite database, with the files in this run's folder.
    cat >"$dir/pi.cfg" <<CFG
SUPERUSER_REALM = ['super']
SQLALCHEMY_DATABASE_URI = 'sqlite:///$dir/data.sqlite'
SECRET_KEY = '$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')'
PI_PEPPER = '$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')'
PI_ENCFILE = '$dir/enckey'
PI_AUDIT_KEY_PRIVATE = '$dir/private.pem'
PI_AUDIT_KEY_PUBLIC = '$dir/public.pem'
PI_LOGFILE = '$dir/privacyidea.log'
PI_LOGLEVEL = 30
CFG
    cat >"$dir/wsgi.py" <<WSGI
from privacyidea.app import create_app
application = create_app(config_name="production", config_file="$dir/pi.cfg", silent=True)
WSGI
    say "privacyIDEA: creating its keys, tables and admin"
    export PRIVACYIDEA_CONFIGFILE=$dir/pi.cfg
    {
        "$bin/pi-manage" setup create_enckey
        "$bin/pi-manage" setup create_audit_keys
        "$bin/pi-manage" setup create_tables
        "$bin/pi-manage" admin add admin -p bench-admin-password
    } >"$dir/setup.log" 2>&1
    local port
    port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    "$bin/gunicorn" --chdir "$dir" --workers 2 --bind "127.0.0.1:$port" --pid "$dir/gunicorn.pid" wsgi:application \
        >"$dir/gunicorn.log" 2>&1 &
    gunicorn_pid=$!
    for _ in $(seq 1 600); do
        curl -s -o /dev/null "http://127.0.0.1:$port/" && break
        sleep 0.1
    done
    say "privacyIDEA: $pi_users users with a TOTP token each"
    (cd "$here" && "$python" privacyidea_setup.py enroll "$port" "$pi_users" "$dir/users.passwd" "$dir/tokens.jsonl")
    (cd "$here" && "$python" privacyidea_setup.py bodies "$dir/tokens.jsonl" "$dir/valid.txt" "$dir/wrong.txt")
    local workers
    mapfile -t workers < <(pgrep -P "$gunicorn_pid")
    measure "privacyIDEA, fresh valid codes" "$port" /validate/check application/x-www-form-urlencoded "$dir/valid.txt" privacyidea \
        "$pi_connections" "$gunicorn_pid" "${workers[@]}"
    measure "privacyIDEA, wrong codes" "$port" /validate/check application/x-www-form-urlencoded "$dir/wrong.txt" privacyidea \
        "$pi_connections" "$gunicorn_pid" "${workers[@]}"
    kill -TERM "$gunicorn_pid" 2>/dev/null || true
    wait "$gunicorn_pid" 2>/dev/null || true
    gunicorn_pid=
}

cleanup() {
    [[ -n ${server_pid:-} ]] && kill -TERM "$server_pid" 2>/dev/null
    [[ -n ${gunicorn_pid:-} ]] && kill -TERM "$gunicorn_pid" 2>/dev/null
    [[ -n ${OTPKIT_PGDATA:-} ]] && bash "$root/.ci/postgres" stop >/dev/null 2>&1
    true
}
trap cleanup EXIT

only=${BENCH_ONLY:-sqlite postgres privacyidea}
wants() { [[ " $only " == *" $1 "* ]]; }

install_missing
if wants sqlite || wants postgres; then build; fi
rm -rf "$run_dir"
mkdir -p "$run_dir"
"$python" -c 'import os; print(os.urandom(32).hex())' >"$run_dir/sealing.key"
chmod 600 "$run_dir/sealing.key"
{
    echo "{\"uptime_before\":\"$(uptime)\",\"date\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"commit\":\"$(git -C "$root" rev-parse --short HEAD)\","
    echo "\"cpu\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')\",\"cores\":$(nproc),"
    echo "\"otpkit_users\":$otpkit_users,\"pi_users\":$pi_users,\"duration\":$duration,\"signing_algorithm\":\"$signing_algorithm\"}"
} | tr -d '\n' >"$run_dir/machine.json"

if wants sqlite; then otpkit_store sqlite "$run_dir/sqlite/otpkit.sqlite"; fi
if wants postgres; then
    eval "$(bash "$root/.ci/postgres" start)"
    otpkit_store postgres "postgres://$PGUSER@127.0.0.1:$PGPORT/$PGDATABASE" --signing-key-file "$run_dir/postgres/signing-key"
    bash "$root/.ci/postgres" stop >/dev/null 2>&1
    unset OTPKIT_PGDATA
fi
if wants privacyidea; then privacyidea; fi
"$python" -c 'import json, sys; m = json.load(open(sys.argv[1])); m["uptime_after"] = sys.argv[2]; json.dump(m, open(sys.argv[1], "w"))' \
    "$run_dir/machine.json" "$(uptime)"
for kind in valid wrong; do
    if [[ -f $run_dir/perf-$kind.data ]]; then
        perf report -i "$run_dir/perf-$kind.data" --no-children --sort dso,sym --percent-limit 0.5 --stdio -g none \
            >"$run_dir/perf-$kind.txt" 2>/dev/null || true
        say "profile of the SQLite $kind-code run: $run_dir/perf-$kind.txt"
    fi
done
"$python" "$here/report.py" "$run_dir/machine.json" "$results"
