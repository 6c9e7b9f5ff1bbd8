internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthenticationDatabase
internal import OTPSealing

extension EnrollmentTool {
    /// `totp reseal`: moves every secret to the current sealing key after a key rotation.
    struct Reseal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-seal every secret under the current key (after rotating keys).",
            discussion: """
                Pass the new key as the current key (--key-file or $\(SealingKey.defaultEnvironmentVariable)) \
                and each old key with --previous-key-file. When it finishes, no secret needs the old \
                keys any more.
                """
        )

        @OptionGroup var storeOptions: StoreOptions

        /// Rows re-sealed per transaction: small enough that servers sharing the database wait
        /// little for each, large enough that a big table takes few.
        static let batchSize = 200

        func run() async throws {
            let (moved, usage, sealer) = try await storeOptions.withDatabase { database throws(CommandFailure) in
                (
                    try await database.running { try await $0.resealAll(batchSize: Self.batchSize) },
                    try await database.running { try await $0.sealingKeyUsage() },
                    database.sealer
                )
            }
            let current = sealer.currentKeyID
            var lines = ["Re-sealed \(moved) secret\(moved == 1 ? "" : "s") under key \(current)."]
            let retired = sealer.keyIDs.subtracting([current]).filter { usage[$0] == nil }
            for id in retired.sorted(by: { $0.rawValue < $1.rawValue }) {
                lines.append("Key \(id) seals nothing any more: it can be retired.")
            }
            StandardStreams.writeOutput(lines.joined(separator: "\n") + "\n")
        }
    }
}
