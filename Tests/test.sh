#!/usr/bin/env bash
# The test command: installs what the tests need (oathtool, ...) when missing, then runs every test.
# Nothing skips silently: a test whose tool is missing fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/install
swift test "$@"
