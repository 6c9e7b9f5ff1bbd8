#!/usr/bin/env bash
# CI check, run by .ci/run: generating and verifying codes with a prepared key must not allocate.
# Builds OTPKitBenchmarks (release) and compares each benchmark's mallocCountTotal with the
# threshold of 0 stored in Thresholds/; exits non-zero when an allocation appears. Timing is not
# checked here: CI machines are shared and noisy (see README.md for the timing report).
set -euo pipefail
cd "$(dirname "$0")"

filter='^otpkit\.((generate|value)\.sha(1|256|512)|verify\.w[0-9]+\.(hit|miss))$'
# package-benchmark 1.38 on Swift 6.3 warns that it runs without its ARC runtime interposer,
# which only the retain/release metrics need; those two lines are not errors here. (pipefail
# keeps the exit status of the check.)
swift package benchmark thresholds check \
    --target OTPKitBenchmarks --filter "$filter" --metric mallocCountTotal --no-progress 2>&1 |
    { grep -v -e "Swift runtime interposer" -e "skipping LD_PRELOAD" || true; }
