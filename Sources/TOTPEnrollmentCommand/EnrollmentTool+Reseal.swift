internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPEnrollmentDatabase
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

        func run() async throws {
            let (moved, usage, sealer) = try await storeOptions.withDatabase { database throws(CommandFailure) in
                (
                    try await database.running { (database) throws(EnrollmentDatabaseError) in try await database.resealAll() },
                    try await database.running { (database) throws(EnrollmentDatabaseError) in try await database.sealingKeyUsage() },
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
