#!/usr/bin/env bash
# Times `totp` as whole processes against `oathtool` with hyperfine (Debian's hyperfine package):
# cold start is what a script pays for each code. Builds the release binary the README installs
# (or, with --plain, one without its start-up flags) and prints a Markdown table.
# Usage: bash Benchmarks/cli-startup.sh [--plain]
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in hyperfine oathtool; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install -y $tool" >&2; exit 1; }
done
flags=(-Xswiftc -ld-path="$PWD/.ci/static-ld" -Xswiftc -Xclang-linker -Xswiftc -no-pie)
scratch=.build-startup
if [[ ${1:-} == --plain ]]; then flags=(); scratch=.build-startup-plain; fi
# A build folder of its own: SwiftPM does not relink when only linker flags change.
swift build -c release --product totp --static-swift-stdlib --scratch-path "$scratch" "${flags[@]}" >&2
totp=$scratch/release/totp
secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ
code=$("$totp" code "$secret")
table=$(mktemp)
vault_dir=$(mktemp -d)
export TOTP_VAULT="$vault_dir/vault.json"
head -c 32 /dev/urandom > "$vault_dir/key" && chmod 600 "$vault_dir/key"
"$totp" add --key-file "$vault_dir/key" "otpauth://totp/Bench:user?secret=$secret&issuer=Bench" >/dev/null
# `totp NAME` twice: unlocked (the session's snapshot in the kernel keyring) and with the key file
# (through env(1), whose own exec is in that row).
# A copy at another path has no session, so the key-file row opens the file the long way.
cp "$TOTP_VAULT" "$vault_dir/copy.json"
"$totp" unlock --key-file "$vault_dir/key" --timeout 10 >/dev/null
trap '"$totp" lock >/dev/null; rm -rf "$table" "$table.json" "$vault_dir"' EXIT
hyperfine --shell=none --warmup 50 --runs 2000 --ignore-failure --style basic \
    --export-markdown "$table" --export-json "$table.json" \
    "oathtool --totp -b $secret" \
    "$totp code $secret" \
    "$totp verify $code $secret" \
    "$totp code $secret --digits 6" \
    "$totp uri inspect otpauth://totp/A:b?secret=$secret" \
    "$totp bench" \
    "env TOTP_VAULT=$vault_dir/copy.json TOTP_VAULT_KEY_FILE=$vault_dir/key $totp bench" >&2
cat "$table"
# Medians as a multiple of oathtool's: a shared machine's outliers move the means above.
python3 - "$table.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
base = results[0]["median"]
print()
print("| Command | Median [ms] | × oathtool |")
print("|:---|---:|---:|")
for result in results:
    print(f"| `{result['command']}` | {result['median'] * 1000:.2f} | {result['median'] / base:.2f} |")
PY
