import Foundation
import SwiftProtobuf

/// The `otpauth-migration://offline?data=…` envelope around a protobuf `MigrationPayload`: the
/// Base64 of the payload, percent-encoded in the query (AUTHENTICATOR-FORMATS.md §2.1).
enum MigrationURICoding {
    typealias Payload = Otpkit_Googleauth_MigrationPayload

    static let prefix = "otpauth-migration://"

    /// The most codes one export's batch may have. Google Authenticator puts about ten accounts in
    /// a code, so this is thousands of accounts; beyond, a declared size would have the import list
    /// (and first count through) that many missing codes.
    static let maximumBatchSize = 1000

    /// How many codes the batch of `payload` has: its `batch_size`, absent (0) in a single-code
    /// export of some versions.
    static func batchSize(of payload: Payload) -> Int {
        max(1, Int(payload.batchSize))
    }

    static func payload(from uri: String) throws(MigrationURIError) -> Payload {
        guard let query = query(of: uri) else { throw .notMigrationURI }
        var encoded: Substring?
        for parameter in query.split(separator: "&") where parameter.hasPrefix("data=") {
            encoded = parameter.dropFirst("data=".count)
            break
        }
        guard let encoded else { throw .missingData }
        guard var base64 = percentDecoded(encoded) else { throw .invalidPercentEncoding }
        // Base64 has no spaces: one here is a `+` that something form-decoded on the way (scito's
        // "plus problem"). Form decoding the whole value instead would make that mistake itself.
        base64 = base64.replacingOccurrences(of: " ", with: "+")
        // Lenient about missing `=` padding, which some copy-and-paste paths drop.
        if base64.utf8.count % 4 != 0 { base64 += String(repeating: "=", count: 4 - base64.utf8.count % 4) }
        guard let bytes = Data(base64Encoded: base64) else { throw .invalidBase64 }
        let payload: Payload
        do {
            payload = try Payload(serializedBytes: bytes)
        } catch {
            throw .invalidPayload
        }
        guard !payload.otpParameters.isEmpty else { throw .noAccounts }
        let size = batchSize(of: payload)
        guard size <= maximumBatchSize, (0..<size).contains(Int(payload.batchIndex)) else {
            throw .invalidBatch(size: Int(payload.batchSize), index: Int(payload.batchIndex))
        }
        return payload
    }

    /// The URI of a payload, its Base64 escaped so no reader mistakes `+` for a space.
    static func uri(for payload: Payload) -> String {
        // Serializing a message of plain fields cannot fail: no required fields, no Any to resolve.
        let bytes: Data = (try? payload.serializedBytes()) ?? Data()
        var escaped = ""
        for character in bytes.base64EncodedString().unicodeScalars {
            switch character {
            case "+": escaped += "%2B"
            case "/": escaped += "%2F"
            case "=": escaped += "%3D"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "\(prefix)offline?data=\(escaped)"
    }

    /// Whether a line looks like a migration URI at all, for format detection.
    static func hasPrefix(_ text: some StringProtocol) -> Bool {
        text.prefix(prefix.count).lowercased() == prefix
    }

    /// The query of `otpauth-migration://offline?…` (scheme and host in any letter case), without
    /// a `#` fragment.
    private static func query(of uri: String) -> Substring? {
        guard hasPrefix(uri) else { return nil }
        let rest = uri.dropFirst(prefix.count)
        let host = rest.prefix { $0 != "?" && $0 != "/" }
        guard host.lowercased() == "offline" else { return nil }
        guard let questionMark = rest.firstIndex(of: "?") else { return "" }
        return rest[rest.index(after: questionMark)...].prefix { $0 != "#" }
    }

    /// Plain percent-decoding (`%2B` → `+`, a literal `+` stays `+`); `nil` for a malformed escape
    /// or bytes that are not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
