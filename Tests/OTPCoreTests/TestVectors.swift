import Foundation
import Testing

/// Loads the JSON files in the repository's TestVectors/ folder.
enum TestVectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors")

    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) -> T {
        let url = directory.appendingPathComponent(name)
        do {
            return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot load test vectors \(url.path): \(error)")
        }
    }

    struct HOTPFile: Decodable {
        struct Vector: Decodable, Sendable, CustomTestStringConvertible {
            let counter: UInt64
            let truncatedDecimal: UInt32
            let code: String
            var testDescription: String { "counter \(counter)" }
        }
        let secretASCII: String
        let digits: Int
        let vectors: [Vector]
    }

    struct TOTPFile: Decodable {
        struct Vector: Decodable, Sendable, CustomTestStringConvertible {
            let time: Int64
            let stepHex: String
            let algorithm: String
            let code: String
            var testDescription: String { "\(algorithm) at \(time)" }
        }
        let period: Int64
        let digits: Int
        let seedsASCII: [String: String]
        let vectors: [Vector]
    }

    struct Base32File: Decodable {
        struct Vector: Decodable, Sendable, CustomTestStringConvertible {
            let decoded: String
            let encoded: String
            var testDescription: String { "\"\(decoded)\"" }
        }
        let vectors: [Vector]
    }

    static let hotp = load("rfc4226-hotp.json", as: HOTPFile.self)
    static let totp = load("rfc6238-totp.json", as: TOTPFile.self)
    static let base32 = load("rfc4648-base32.json", as: Base32File.self)
}
