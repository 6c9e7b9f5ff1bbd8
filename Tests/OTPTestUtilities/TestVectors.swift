/// The published vectors in TestVectors/: the shapes of their JSON files, each loaded fresh (a
/// missing or malformed file fails the test that reads it, not the whole test process).
public enum TestVectors {
    public struct HOTPFile: Decodable, Sendable {
        public struct Vector: Decodable, Sendable, CustomStringConvertible {
            public let counter: UInt64
            public let truncatedDecimal: UInt32
            public let code: String
            public var description: String { "counter \(counter)" }
        }
        public let secretASCII: String
        public let digits: Int
        public let vectors: [Vector]
    }

    public struct TOTPFile: Decodable, Sendable {
        public struct Vector: Decodable, Sendable, CustomStringConvertible {
            public let time: Int64
            public let stepHex: String
            public let algorithm: String
            public let code: String
            public var description: String { "\(algorithm) at \(time)" }
        }
        public let period: Int64
        public let digits: Int
        public let seedsASCII: [String: String]
        public let vectors: [Vector]
    }

    public struct Base32File: Decodable, Sendable {
        public struct Vector: Decodable, Sendable, CustomStringConvertible {
            public let decoded: String
            public let encoded: String
            public var description: String { "\"\(decoded)\"" }
        }
        public let vectors: [Vector]
    }

    /// RFC 4226 Appendix D.
    public static func hotp() throws -> HOTPFile { try Fixture.decode(from: "TestVectors/rfc4226-hotp.json") }
    /// RFC 6238 Appendix B.
    public static func totp() throws -> TOTPFile { try Fixture.decode(from: "TestVectors/rfc6238-totp.json") }
    /// RFC 4648 section 10.
    public static func base32() throws -> Base32File { try Fixture.decode(from: "TestVectors/rfc4648-base32.json") }
}
