import Foundation
import OTPCore
@testable import OTPImport
import OTPTestUtilities
import OTPURI
import Testing

/// Decodes the payloads GoogleMigrationExport writes with Google's own protobuf decoder, `protoc
/// --decode` (Debian protobuf-compiler), against the committed schema: code nobody here wrote
/// reads the wire format, so an encoding mistake the importer shares with the exporter shows.
@Suite("Cross-check of exported migration payloads with protoc")
struct ProtocCrossCheckTests {
    @Test("protoc decodes exported payloads to the accounts' secret bytes, names and batch fields")
    func protocDecodes() async throws {
        let protoc = try ExternalTool.protoc.path()
        let accounts = GoogleMigrationImportTests.accounts(13)
        // A negative id: a 10-byte varint on the wire, the case hand-written decoders get wrong.
        let export = GoogleMigrationExport(accounts: accounts, batchID: -1_320_898_453)
        #expect(export.uris.count == 2)
        let directory = Fixture.url("Sources/OTPImport/GoogleMigration").path
        var decoded: [DecodedParameters] = []
        for (index, uri) in export.uris.enumerated() {
            let encoded = String(uri.dropFirst("otpauth-migration://offline?data=".count))
            let bytes = try #require(encoded.removingPercentEncoding.flatMap { Data(base64Encoded: $0) })
            let run = try await ProcessRunner.run(
                protoc, ["--decode=otpkit.googleauth.MigrationPayload", "-I", directory, "google_auth_migration.proto"], input: Array(bytes))
            try #require(run.status == 0, "\(run)")
            let payload = try TextFormat.parse(run.stdout)
            #expect(payload.fields["version"] == ["1"])
            #expect(payload.fields["batch_size"] == ["2"])
            // proto3 text format leaves out fields at their default, 0 here.
            #expect(payload.fields["batch_index"] == (index == 0 ? nil : ["1"]))
            #expect(payload.fields["batch_id"] == ["-1320898453"])
            decoded += payload.messages
        }
        #expect(decoded.count == accounts.count)
        for (account, parameters) in zip(accounts, decoded) {
            #expect(parameters.bytes("secret") == account.secret.withUnsafeBytes { Array($0) })
            #expect(parameters.string("name") == account.accountName)
            #expect(parameters.string("issuer") == (account.issuer ?? ""))
            #expect(parameters.fields["algorithm"] == ["ALGORITHM_\(account.algorithm.rawValue)"])
            #expect(parameters.fields["digits"] == [account.digits == 6 ? "DIGIT_COUNT_SIX" : "DIGIT_COUNT_EIGHT"])
            #expect(parameters.fields["type"] == [account.kind == .totp ? "OTP_TYPE_TOTP" : "OTP_TYPE_HOTP"])
            #expect(parameters.fields["counter"] == account.counter.flatMap { $0 == 0 ? nil : [String($0)] })
        }
    }

    /// The fields of one message in protoc's text format: `name: value` lines, values as printed.
    struct DecodedParameters {
        var fields: [String: [String]] = [:]

        /// A string or bytes field, its C escapes undone; "" when the field is absent (the default).
        func bytes(_ name: String) -> [UInt8]? {
            guard let value = fields[name]?.first else { return [] }
            return TextFormat.unescape(value)
        }

        func string(_ name: String) -> String? {
            bytes(name).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Just enough of protobuf's text format for a MigrationPayload: top-level fields and
    /// `otp_parameters { … }` blocks.
    enum TextFormat {
        struct Unexpected: Error, CustomStringConvertible {
            let line: String
            var description: String { "unexpected protoc output line: \(line)" }
        }

        static func parse(_ text: String) throws -> (fields: [String: [String]], messages: [DecodedParameters]) {
            var fields: [String: [String]] = [:]
            var messages: [DecodedParameters] = []
            var current: DecodedParameters?
            for raw in text.split(separator: "\n") {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line == "otp_parameters {" {
                    current = DecodedParameters()
                } else if line == "}" {
                    guard let finished = current else { throw Unexpected(line: line) }
                    messages.append(finished)
                    current = nil
                } else if let colon = line.firstIndex(of: ":") {
                    let name = String(line[..<colon])
                    let value = String(line[line.index(colon, offsetBy: 2)...])
                    if current != nil {
                        current?.fields[name, default: []].append(value)
                    } else {
                        fields[name, default: []].append(value)
                    }
                } else {
                    throw Unexpected(line: line)
                }
            }
            return (fields, messages)
        }

        /// The bytes of a quoted C-escaped value: `\NNN` octal, `\xHH`, `\n`, `\"` and the like.
        static func unescape(_ quoted: String) -> [UInt8]? {
            let bytes = Array(quoted.utf8)
            guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return nil }
            var result: [UInt8] = []
            var index = 1
            while index < bytes.count - 1 {
                let byte = bytes[index]
                index += 1
                guard byte == UInt8(ascii: "\\") else {
                    result.append(byte)
                    continue
                }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(escape - UInt8(ascii: "0"))
                    var digits = 1
                    while digits < 3, index < bytes.count - 1, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                        value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
                        index += 1
                        digits += 1
                    }
                    result.append(UInt8(truncatingIfNeeded: value))
                case UInt8(ascii: "x"):
                    var value = 0
                    while index < bytes.count - 1, let digit = Int(String(UnicodeScalar(bytes[index])), radix: 16) {
                        value = value * 16 + digit
                        index += 1
                    }
                    result.append(UInt8(truncatingIfNeeded: value))
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "t"): result.append(0x09)
                default: result.append(escape)
                }
            }
            return result
        }
    }
}
