#!/usr/bin/env bash
# Builds the libFuzzer target (with AddressSanitizer) and runs it on a copy of the committed
# corpus. Extra arguments go to libFuzzer, e.g. `bash Tests/Fuzz/run.sh -runs=10000000`.
# A crashing input is written to Tests/Fuzz/crash-*; replay it with
# `Tests/Fuzz/.build-fuzz/release/FuzzParsers Tests/Fuzz/crash-…`.
set -euo pipefail
cd "$(dirname "$0")"
# --sanitize=fuzzer links libFuzzer (its main) but instruments only this package's own target;
# -Xswiftc adds coverage instrumentation to OTPCore and OTPURI too, which is what guides the fuzzer.
swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address --build-path .build-fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp Corpus/* "$work/"
# The Swift runtime's own backtracer would race with AddressSanitizer's report.
export SWIFT_BACKTRACE=enable=no
.build-fuzz/release/FuzzParsers "$work" -dict=otpauth.dict -max_len=512 -timeout=5 -print_final_stats=1 "$@"
