#!/usr/bin/env bash
# The test command: installs what the tests need (oathtool, PostgreSQL, ...) when missing, starts a
# throwaway PostgreSQL cluster for the Postgres store's tests (.ci/postgres), runs every test and
# stops the cluster again, keeping the tests' exit status. Nothing skips silently: a test whose
# tool or server is missing fails.
#
# Without arguments every test runs, in three passes after one build:
# 1. everything but the timed suites and the PostgreSQL store's;
# 1b. the PostgreSQL store's suites (see below);
# 2. the suites that time something in fractions of a second (timeouts of the SMS senders,
#    key-set fetches, lock and pool waits, terminal frames, the server's slow-client timeouts),
#    without the rest: in the first pass the rest keeps both cores and the concurrency pool busy
#    with CPU-bound tests and child processes, and has delayed a 500 ms timer there by more than 30
#    seconds. Beside them only OTPCore's tests (two seconds of work) run once more, on OpenSSL's
#    transforms alone (OTPKIT_DISABLE_SHA_LANES), the path of CPUs without the SHA extensions (all
#    but the lane kernels' own checks).
# `--skip-build` alone keeps the passes; other arguments go to one swift test run as given.
# The PyPI packages install in the background while the tests build: no build step needs them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install debian
bash .ci/install python &
python_install=$!
eval "$(bash .ci/postgres start)"
trap 'bash .ci/postgres stop "$OTPKIT_PGDATA"' EXIT
timed='^(OTPSMSTests\.|(OTPFederationTests\.KeySetTests|OTPAuthenticationSQLiteTests\.LockingTests|TOTPCommandTests\.TerminalTests|OTPTestUtilitiesTests\.ProcessRunnerTests|OTPAuthenticationPostgresTests\.ConnectionErrorTests|OTPServerTests\.SlowClientTests)/)'
# The PostgreSQL store's own suites open a store (and migrate a schema, one at a time under the
# migration lock) per test; beside the rest of the first pass on two cores their operations waited
# more than the pool's 10 s for a connection, so they run in a pass of their own.
postgres='^OTPAuthenticationPostgresTests\.'
status=0
skip_build=false
if [ "$#" -eq 1 ] && [ "$1" = "--skip-build" ]; then
    skip_build=true
    shift
fi
if [ "$#" -gt 0 ]; then
    wait "$python_install"
    swift test "$@" || status=$?
    exit "$status"
fi
if ! $skip_build; then
    start=$SECONDS
    swift build --build-tests || status=$?
    echo "test.sh: build took $((SECONDS - start)) s" >&2
fi
wait "$python_install"
[ "$status" -eq 0 ] || exit "$status"
# The passes run the tests' binary itself, as `swift test` does after planning the build again
# (five seconds a pass, for nothing after the build above). It exits non-zero when a test fails.
tests="$(swift build --show-bin-path)/OTPKitPackageTests.xctest"
[ -t 1 ] || export NO_COLOR=1
# Each pass reports how long it took (on stderr, after the test run's own summary).
pass() {
    local name=$1 start=$SECONDS
    shift
    "$tests" --testing-library swift-testing "$@" || status=$?
    echo "test.sh: $name took $((SECONDS - start)) s" >&2
}
pass "pass 1 (all but timed and PostgreSQL)" --skip "$timed|$postgres"
pass "pass 1b (PostgreSQL store)" --filter "$postgres" --skip "$timed"
OTPKIT_DISABLE_SHA_LANES=1 pass "pass 2 (timed suites, OTPCore without SHA lanes)" \
    --filter "$timed|^OTPCoreTests\." --skip 'kernelsMatchOpenSSL|hotpKernelsMatchOpenSSL'
exit "$status"
