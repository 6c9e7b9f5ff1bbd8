#!/usr/bin/env bash
# The test command: installs what the tests need (oathtool, PostgreSQL, ...) when missing, starts a
# throwaway PostgreSQL cluster for the Postgres store's tests (.ci/postgres), runs every test and
# stops the cluster again, keeping swift test's exit status. Nothing skips silently: a test whose
# tool or server is missing fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install
eval "$(bash .ci/postgres start)"
trap 'bash .ci/postgres stop "$OTPKIT_PGDATA"' EXIT
status=0
swift test "$@" || status=$?
exit "$status"
