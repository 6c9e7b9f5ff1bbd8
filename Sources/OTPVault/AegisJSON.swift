internal import FoundationEssentials
internal import OTPCore

/// The JSON shapes of an Aegis vault file (Aegis's `VaultFile`, `Slot` and `CryptParameters`),
/// with the field names Aegis reads and writes.
enum AegisJSON {
    /// Read first, alone, so that a newer file is reported as such rather than as malformed.
    struct Versioned: Decodable {
        var version: Int
    }

    struct File: Codable {
        var version: Int
        var header: Header
        var db: Database
    }

    struct Header: Codable {
        var slots: [Slot]?
        var params: Parameters?
    }

    struct Parameters: Codable {
        var nonce: String
        var tag: String
    }

    struct Slot: Codable {
        var type: Int
        var uuid: String
        var key: String
        var keyParams: Parameters
        var n: Int?
        var r: Int?
        var p: Int?
        var salt: String?
        var repaired: Bool?
        var isBackup: Bool?

        enum CodingKeys: String, CodingKey {
            case type, uuid, key, n, r, p, salt, repaired
            case keyParams = "key_params"
            case isBackup = "is_backup"
        }
    }

    /// `db`: Base64 of the ciphertext when encrypted, the content object itself when plain.
    enum Database: Codable {
        case encrypted(String)
        case plain(JSONValue)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .encrypted(text)
            } else {
                self = .plain(try container.decode(JSONValue.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .encrypted(let text): try container.encode(text)
            case .plain(let value): try container.encode(value)
            }
        }
    }

    static func decoder() -> JSONDecoder { JSONDecoder() }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // Sorted keys make two saves of the same vault differ only where the bytes must.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A short account of why decoding failed: the field and the problem, never the values.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "the file is not valid JSON" }
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "the top level" : names.joined(separator: ".").replacing(".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context, key)) is missing"
        case .valueNotFound(_, let context): return "\(path(context)) is null"
        case .typeMismatch(_, let context): return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "the file is not valid JSON" : "\(path(context)) is invalid"
        @unknown default: return "it is not an Aegis vault"
        }
    }
}
