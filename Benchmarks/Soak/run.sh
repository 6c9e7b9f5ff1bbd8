#!/usr/bin/env bash
# The soak under faults (issue 40, item 4): two release builds of otpkit-server on one throwaway
# PostgreSQL cluster, mixed traffic for DURATION seconds (default 600), one server killed with
# SIGKILL, PostgreSQL restarted the hard way and one client's quota filled on the way (soak.py says
# what it checks). Not part of CI: it takes its duration and both cores.
#
#   bash Benchmarks/Soak/run.sh [DURATION] [soak.py options]
#
# The report (report.json) and the timeline (timeline.jsonl, a line a second) go to
# .build/soak/RUN, beside the servers' logs; ANALYSIS.md keeps the figures of a run.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-600}
shift || true
swift build -c release --product otpkit-server
server="$(swift build -c release --show-bin-path)/otpkit-server"
eval "$(bash .ci/postgres start)"
trap 'bash .ci/postgres stop "$OTPKIT_PGDATA"' EXIT
directory=.build/soak/$(date -u +%Y%m%dT%H%M%SZ)
/usr/bin/python3 Benchmarks/Soak/soak.py --server "$server" --duration "$duration" --directory "$directory" \
    --database "postgres://$PGUSER@127.0.0.1:$PGPORT/$PGDATABASE" \
    --postgres-restart "bash .ci/postgres restart $(printf %q "$OTPKIT_PGDATA")" "$@"
