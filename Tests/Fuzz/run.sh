#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs one on a copy of its seed corpus.
#
#   bash Tests/Fuzz/run.sh                      # FuzzParsers, until stopped
#   bash Tests/Fuzz/run.sh FuzzImport -runs=10000000
#   bash Tests/Fuzz/run.sh FuzzQRImage -max_total_time=1800
#
# Targets and their seeds (copied into .build-fuzz/corpus/TARGET, which keeps what the fuzzer adds
# for the next run and stays out of git):
#   FuzzParsers   Base32 and otpauth:// parsers; Tests/Fuzz/Corpus and the regressions
#   FuzzImport    Aegis, 2FAS, andOTP, URI lists, Google Authenticator migration URIs; the
#                 importer samples in ../shared/importer-samples (read there, never copied into git)
#   FuzzQRImage   PNG and JPEG through libpng, TurboJPEG and zbar; the samples' images
#   FuzzPhoneNumber  phone numbers through libphonenumber; Tests/Fuzz/Corpus/phone
#   FuzzIdentityToolkit  a request through otpkit-server's routes (every REST body, the tokens the
#                 server issues and reads); Tests/Fuzz/Corpus/identitytoolkit, one request a file
#   FuzzIdentityTokens  a provider's JWKS and an ID token through OTPFederation's verifier;
#                 Tests/Fuzz/Corpus/identitytokens (from make-identity-token-seeds.py)
#   FuzzGatewayAnswers  an SMS or mail gateway's raw HTTP answer to the Twilio and webhook senders;
#                 Tests/Fuzz/Corpus/gateway
#   FuzzWebAuthn  what a browser sends a WebAuthn relying party (CBOR, authenticator data, COSE keys,
#                 client data, registrations, assertions); Tests/Fuzz/Corpus/webauthn (from
#                 make-webauthn-seeds.py)
# Extra arguments go to libFuzzer. A crashing input is written to Tests/Fuzz/crash-*; replay it with
# `Tests/Fuzz/.build-fuzz/release/TARGET Tests/Fuzz/crash-…`, then keep it in Tests/Fuzz/Regressions/TARGET.
set -euo pipefail
cd "$(dirname "$0")"
target=FuzzParsers
if [[ $# -gt 0 && $1 != -* ]]; then target=$1; shift; fi
samples=../../../shared/importer-samples
case $target in
    FuzzParsers) seeds=(Corpus/* Regressions/FuzzParsers/*); options=(-dict=otpauth.dict -max_len=512) ;;
    FuzzImport) seeds=("$samples"/{aegis,2fas,andotp,uri-list,google-migration}/* Regressions/FuzzImport/*); options=(-max_len=65536) ;;
    FuzzQRImage) seeds=("$samples"/qr-image/* Regressions/FuzzQRImage/*); options=(-max_len=1048576 -rss_limit_mb=4096) ;;
    FuzzPhoneNumber) seeds=(Corpus/phone/* Regressions/FuzzPhoneNumber/*); options=(-max_len=256) ;;
    # These three hand each input to async code and wait: what an input allocates is freed on other
    # threads a moment after it returns, which LeakSanitizer's check after each input takes for a
    # leak and then scans the whole heap for (thirteen times slower). Memory growth shows in the
    # run's RSS instead, bounded by -rss_limit_mb.
    FuzzIdentityToolkit) seeds=(Corpus/identitytoolkit/* Regressions/FuzzIdentityToolkit/*); options=(-dict=identitytoolkit.dict -max_len=4096 -detect_leaks=0) ;;
    FuzzIdentityTokens) seeds=(Corpus/identitytokens/* Regressions/FuzzIdentityTokens/*); options=(-max_len=16384 -detect_leaks=0) ;;
    FuzzGatewayAnswers) seeds=(Corpus/gateway/* Regressions/FuzzGatewayAnswers/*); options=(-max_len=8192 -detect_leaks=0) ;;
    FuzzWebAuthn) seeds=(Corpus/webauthn/* Regressions/FuzzWebAuthn/*); options=(-max_len=4096 -detect_leaks=0) ;;
    *)
        echo "run.sh: no fuzz target $target: give FuzzParsers, FuzzImport, FuzzQRImage, FuzzPhoneNumber," \
            "FuzzIdentityToolkit, FuzzIdentityTokens, FuzzGatewayAnswers or FuzzWebAuthn" >&2
        exit 64
        ;;
esac
# --sanitize=fuzzer links libFuzzer (its main) but instruments only this package's own targets;
# -Xswiftc adds coverage instrumentation to OTPKit's modules too, which is what guides the fuzzer.
# OTPKIT_FUZZ_BUILT=1 skips the build (CI's short pass builds first, in the idle scheduling class).
if [[ ${OTPKIT_FUZZ_BUILT:-} != 1 ]]; then
    swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address --build-path .build-fuzz --product "$target"
fi
# The corpus a run grows is kept for the next run of the target, beside the build (outside git).
work=.build-fuzz/corpus/$target
mkdir -p "$work"
for seed in "${seeds[@]}"; do
    [[ -f $seed && $seed != *.expected.json ]] && cp "$seed" "$work/"
done
# The Swift runtime's own backtracer would race with AddressSanitizer's report.
export SWIFT_BACKTRACE=enable=no
".build-fuzz/release/$target" "$work" "${options[@]}" -timeout=1 -print_final_stats=1 "$@"
