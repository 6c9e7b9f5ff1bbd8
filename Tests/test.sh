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
# OTPCore once more on OpenSSL's transforms alone, the path of CPUs without the SHA extensions
# (after a whole run: a run of chosen tests is left as asked).
if [ "$status" -eq 0 ] && [ "$#" -eq 0 ] && [ -z "${OTPKIT_DISABLE_SHA_LANES:-}" ]; then
    OTPKIT_DISABLE_SHA_LANES=1 swift test --skip-build --filter OTPCoreTests --skip kernelsMatchOpenSSL || status=$?
fi
exit "$status"
