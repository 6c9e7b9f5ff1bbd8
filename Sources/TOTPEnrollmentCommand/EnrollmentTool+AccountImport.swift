internal import ArgumentParser
internal import Foundation
internal import OTPAuthentication
internal import OTPAuthenticationDatabase
internal import OTPCommandSupport
internal import OTPCore

extension EnrollmentTool.Account {
    /// `totp account import FILE`: the accounts of a `firebase auth:export` file, JSON or CSV, with
    /// their password hashes as `firebase auth:import` reads them.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import the accounts of a `firebase auth:export` file (JSON or CSV), password hashes included.",
            discussion: """
                The hash options are those of `firebase auth:import`: the Firebase console shows a \
                project's under Users, Password hash parameters (SCRYPT, its signer key, salt \
                separator, rounds and memory cost). Each account is made whole or not at all, and \
                existing accounts are never written over: one that cannot be made is listed with why, \
                and the others are made. Phone and TOTP second factors come along from JSON's mfaInfo \
                (a TOTP factor only with OTPKit's sharedSecretKey). Without --hash-algo, accounts are \
                made without their passwords, and their users reset them. Users with SCRYPT or HMAC \
                hashes sign in where the server is configured with the same parameters \
                (otpkit-server --firebase-hash-config, --hmac-import-key) until their first sign-in \
                re-hashes their passwords.
                """
        )

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var hashOptions: ImportHashOptions

        @Option(help: ArgumentHelp("The file's format (default: csv for a .csv file, json otherwise).", valueName: "json|csv"))
        var format: Format?

        @Argument(help: ArgumentHelp("The file to import (- for standard input).", valueName: "file"))
        var file: String

        enum Format: String, ExpressibleByArgument {
            case json, csv
        }

        /// The largest file read: a million users of firebase-tools' JSON take about 600 MB.
        static let maximumFileBytes = 1 << 30

        /// What the import did, to say after it.
        struct Summary {
            var imported = 0
            /// Accounts not made, with why, by their position in the file (from 1).
            var refused: [(position: Int, uid: String?, reason: String)] = []
            /// Password hashes left out, for want of --hash-algo.
            var droppedPasswords = 0
        }

        func run() async throws {
            let (hashing, passwords) = try hashOptions.hashing()
            let records = try Self.records(try Self.read(file), format: format ?? (file.lowercased().hasSuffix(".csv") ? .csv : .json))
            var summary = Summary()
            let progress = StandardStreams.isTerminal(STDERR_FILENO) && records.count > AccountAdministration.maximumImportCount
            try await storeOptions.withService(passwords: passwords) { _, service throws(CommandFailure) in
                var start = 0
                while start < records.count {
                    let end = min(start + AccountAdministration.maximumImportCount, records.count)
                    try await Self.importBatch(records, range: start..<end, hashing: hashing, service: service, summary: &summary)
                    if progress { StandardStreams.writeError("\rimported \(end) of \(records.count) users") }
                    start = end
                }
            }
            if progress { StandardStreams.writeError("\n") }
            StandardStreams.writeOutput(Self.describe(summary, hashing: hashing))
            if !summary.refused.isEmpty {
                throw CommandFailure.dataError(
                    "\(summary.refused.count) of \(records.count) account\(records.count == 1 ? " was" : "s were") not imported (listed above); the others were"
                )
            }
        }

        /// One batch of at most the service's import count.
        static func importBatch(
            _ records: [FirebaseUserRecord], range: Range<Int>, hashing: FirebaseImportHashing?, service: MultiFactorService, summary: inout Summary
        ) async throws(CommandFailure) {
            var accounts: [ImportedAccount] = []
            var positions: [Int] = []
            for index in range {
                var record = records[index]
                if hashing == nil, record.passwordHash?.isEmpty == false {
                    record.passwordHash = nil
                    summary.droppedPasswords += 1
                }
                do throws(AdminRequestError) {
                    accounts.append(try ImportedAccount(firebase: record, hashing: hashing))
                    positions.append(index)
                } catch {
                    summary.refused.append((index + 1, record.localId, error.message))
                }
            }
            let refused: [AccountImportFailure]
            do throws(AuthError) {
                refused = try await service.administration.importAccounts(accounts)
            } catch {
                throw CommandFailure(error)
            }
            summary.imported += accounts.count - refused.count
            summary.refused += refused.map { (positions[$0.index] + 1, records[positions[$0.index]].localId, $0.message) }
        }

        /// The file's bytes, or standard input's, refused past ``maximumFileBytes`` before they are
        /// read whole.
        static func read(_ file: String) throws(CommandFailure) -> [UInt8] {
            let source = file == "-" ? "standard input" : file
            do {
                return file == "-"
                    ? try POSIXFile.standardInput.contents(atMost: maximumFileBytes)
                    : try POSIXFile.contents(ofFile: file, atMost: maximumFileBytes)
            } catch {
                throw CommandFailure(error, reading: source, tooLarge: "\(source) is larger than 1 GiB: split it")
            }
        }

        /// The users of `bytes` in `format`.
        static func records(_ bytes: [UInt8], format: Format) throws(CommandFailure) -> [FirebaseUserRecord] {
            do throws(AdminRequestError) {
                return switch format {
                case .json: try FirebaseUserRecord.records(json: bytes)
                case .csv: try FirebaseUserRecord.records(csv: bytes)
                }
            } catch {
                throw .dataError(error.message)
            }
        }

        /// What was imported, what was not and why.
        static func describe(_ summary: Summary, hashing: FirebaseImportHashing?) -> String {
            var lines = ["Imported \(summary.imported) account\(summary.imported == 1 ? "" : "s")."]
            for refusal in summary.refused.sorted(by: { $0.position < $1.position }) {
                let uid = refusal.uid.map { " (\($0.prefix(128)))" } ?? ""
                lines.append("Not imported: user \(refusal.position)\(uid): \(refusal.reason)")
            }
            if summary.droppedPasswords > 0 {
                lines.append(
                    "\(summary.droppedPasswords) password hash\(summary.droppedPasswords == 1 ? " was" : "es were") left out for want of --hash-algo: those users reset their passwords."
                )
            }
            switch hashing {
            case .firebaseScrypt:
                lines.append(
                    "Their passwords are the Firebase project's scrypt hashes: they sign in where otpkit-server runs with --firebase-hash-config and these parameters, until each first sign-in re-hashes its password."
                )
            case .hmac:
                lines.append(
                    "Their passwords are HMAC hashes: they sign in where otpkit-server runs with --hmac-import-key and this key, until each first sign-in re-hashes its password."
                )
            default:
                break
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
