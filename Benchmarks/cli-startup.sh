#!/usr/bin/env bash
# Times `totp` as whole processes against `oathtool` with hyperfine (Debian's hyperfine package):
# cold start is what a script pays for each code. Builds the release binary the README installs.
# Usage: bash Benchmarks/cli-startup.sh [extra swift build flags]
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in hyperfine oathtool; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install -y $tool" >&2; exit 1; }
done
swift build -c release --product totp --static-swift-stdlib "$@" >&2
totp=.build/release/totp
secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ
code=$("$totp" code "$secret")
hyperfine --shell=none --warmup 50 --runs 2000 --ignore-failure \
    --export-markdown /dev/stdout \
    "oathtool --totp -b $secret" \
    "$totp code $secret" \
    "$totp verify $code $secret" \
    "$totp code $secret --digits 6" \
    "$totp code $secret --json" \
    "$totp uri inspect otpauth://totp/A:b?secret=$secret" \
    2>/dev/null | grep '^|'
