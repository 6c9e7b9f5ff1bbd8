#!/usr/bin/env bash
# Regenerates Sources/OTPImport/GoogleMigration/GoogleAuthMigration.pb.swift from
# google_auth_migration.proto beside it.
#
# The generated code is committed because building protoc-gen-swift takes minutes and the schema
# changes almost never: neither a build nor CI runs this script, only a person changing the schema.
# It needs protoc (Debian protobuf-compiler) and a protoc-gen-swift of the swift-protobuf version the
# package depends on, built once outside the repository:
#   git clone https://github.com/apple/swift-protobuf /tmp/swift-protobuf && cd /tmp/swift-protobuf
#   git checkout 1.39.0 && swift build -c release --product protoc-gen-swift
# Usage: bash Scripts/generate-protobuf.sh [PATH/TO/protoc-gen-swift]
#        (default: $PROTOC_GEN_SWIFT, else /tmp/swift-protobuf/.build/release/protoc-gen-swift)
set -euo pipefail
cd "$(dirname "$0")/.."

plugin="${1:-${PROTOC_GEN_SWIFT:-/tmp/swift-protobuf/.build/release/protoc-gen-swift}}"
[[ -x $plugin ]] || { echo "protoc-gen-swift not found at $plugin: build it as this script's header says" >&2; exit 1; }
command -v protoc >/dev/null || { echo "protoc not found: install the Debian package protobuf-compiler" >&2; exit 1; }

directory=Sources/OTPImport/GoogleMigration
output=$(mktemp -d)
trap 'rm -rf "$output"' EXIT

# Internal visibility: the generated messages are OTPImport's implementation, not its API.
protoc --plugin=protoc-gen-swift="$plugin" -I "$directory" \
    --swift_opt=Visibility=Internal --swift_opt=FileNaming=DropPath \
    --swift_out="$output" google_auth_migration.proto
mv "$output/google_auth_migration.pb.swift" "$directory/GoogleAuthMigration.pb.swift"
echo "generated $directory/GoogleAuthMigration.pb.swift with $("$plugin" --version)"
