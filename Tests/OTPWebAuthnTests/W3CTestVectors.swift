import OTPCore
import OTPTestUtilities
import Testing
import X509

/// The test vectors of W3C Web Authentication Level 3 (section "Test Vectors"), transcribed into
/// TestVectors/webauthn-level3.json by Scripts/extract-webauthn-vectors.py.
struct W3CTestVectors: Decodable {
    let rpID: String
    let origin: String
    let topOrigin: String
    let attestationRootCertificate: String
    let vectors: [Vector]

    struct Vector: Decodable, CustomTestStringConvertible, Sendable {
        let name: String
        let anchor: String
        let registration: [String: String]
        let authentication: [String: String]

        var testDescription: String { anchor.replacingOccurrences(of: "sctn-test-vectors-", with: "") }

        func registration(_ field: String) -> [UInt8] { hex(registration[field] ?? "") }
        func authentication(_ field: String) -> [UInt8] { hex(authentication[field] ?? "") }
    }

    static func load() throws -> W3CTestVectors {
        try Fixture.decode(from: "TestVectors/webauthn-level3.json")
    }

    /// The vectors of these sections (`none-es256` for `sctn-test-vectors-none-es256`); an error
    /// for a name the file lacks, so that no test runs on fewer vectors than it names.
    static func named(_ anchors: String...) throws -> [Vector] {
        let all = try load()
        return try anchors.map { anchor in
            try #require(all.vectors.first { $0.anchor == "sctn-test-vectors-\(anchor)" }, "no vector \(anchor)")
        }
    }

    var root: Certificate {
        get throws { try Certificate(derEncoded: hex(attestationRootCertificate)) }
    }
}

/// The bytes of a vector's or a client's hexadecimal; none for text that is not (which then fails
/// the test that uses them).
func hex(_ text: String) -> [UInt8] {
    Hex.decode(text) ?? []
}
