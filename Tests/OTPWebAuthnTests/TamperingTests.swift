import Foundation
import OTPWebAuthn
import Testing

/// A response altered in any part the relying party checks is refused with the error that names
/// the part, starting from one that verifies (W3C test vector none-es256).
@Suite("WebAuthn responses altered")
struct TamperingTests {
    static func vector() throws -> W3CTestVectors.Vector { try #require(try W3CTestVectors.named("none-es256").first) }

    static func registered() async throws -> (RelyingParty, W3CTestVectors.Vector, RegisteredCredential) {
        let party = try RelyingPartyTests.party()
        let vector = try vector()
        return (party, vector, try await RelyingPartyTests.register(vector, with: party))
    }

    static func assertion(
        _ party: RelyingParty, _ vector: W3CTestVectors.Vector, _ credential: RegisteredCredential, clientDataJSON: [UInt8]? = nil,
        authenticatorData: [UInt8]? = nil, signature: [UInt8]? = nil, challenge: [UInt8]? = nil
    ) -> WebAuthnError? {
        do {
            _ = try party.verifyAssertion(
                clientDataJSON: clientDataJSON ?? vector.authentication("clientDataJSON"),
                authenticatorData: authenticatorData ?? vector.authentication("authenticatorData"),
                signature: signature ?? vector.authentication("signature"), challenge: challenge ?? vector.authentication("challenge"),
                userVerification: .preferred, credential: credential)
            return nil
        } catch {
            return error
        }
    }

    @Test("another challenge, type or origin in the client data")
    func clientData() async throws {
        let (party, vector, credential) = try await Self.registered()
        var challenge = vector.authentication("challenge")
        challenge[0] ^= 1
        #expect(Self.assertion(party, vector, credential, challenge: challenge) == .mismatch("the client data's challenge is not this ceremony's"))
        let text = String(decoding: vector.authentication("clientDataJSON"), as: UTF8.self)
        let otherOrigin = Array(text.replacingOccurrences(of: "https://example.org", with: "https://example.org.evil.com").utf8)
        guard case .mismatch(let detail) = Self.assertion(party, vector, credential, clientDataJSON: otherOrigin), detail.contains("origin") else {
            Issue.record("another origin was not refused as such")
            return
        }
        let otherType = Array(text.replacingOccurrences(of: "webauthn.get", with: "webauthn.create").utf8)
        guard case .mismatch(let typeDetail) = Self.assertion(party, vector, credential, clientDataJSON: otherType), typeDetail.contains("type")
        else {
            Issue.record("a registration's client data was taken for an assertion's")
            return
        }
        // Client data that is not what was signed: the signature covers its hash.
        let reordered = Array(text.replacingOccurrences(of: "\"crossOrigin\":false", with: "\"crossOrigin\":false ").utf8)
        #expect(Self.assertion(party, vector, credential, clientDataJSON: reordered) == .invalidSignature("the assertion's signature"))
        #expect(Self.assertion(party, vector, credential, clientDataJSON: Array("not json".utf8)).map { "\($0)" }?.contains("malformed") == true)
    }

    @Test("a flipped bit of the signature, or of the signed authenticator data")
    func signature() async throws {
        let (party, vector, credential) = try await Self.registered()
        for index in [8, 40, vector.authentication("signature").count - 1] {
            var signature = vector.authentication("signature")
            signature[index] ^= 0x01
            #expect(
                Self.assertion(party, vector, credential, signature: signature) == .invalidSignature("the assertion's signature"), "byte \(index)")
        }
        var data = vector.authentication("authenticatorData")
        data[36] ^= 0x01  // the counter's last byte: 0 → 1, signed over
        #expect(Self.assertion(party, vector, credential, authenticatorData: data) == .invalidSignature("the assertion's signature"))
    }

    @Test("flags: user presence missing, backup eligibility changed, backed up without eligibility; another relying party")
    func flagsAndRelyingParty() async throws {
        let (party, vector, credential) = try await Self.registered()
        var data = vector.authentication("authenticatorData")
        data[32] &= ~0x01
        #expect(Self.assertion(party, vector, credential, authenticatorData: data) == .userNotPresent)
        data = vector.authentication("authenticatorData")
        try #require(credential.backupEligible, "the vector's credential is backup eligible")
        data[32] &= ~0x18  // neither eligible nor backed up
        guard case .mismatch(let detail) = Self.assertion(party, vector, credential, authenticatorData: data), detail.contains("BE") else {
            Issue.record("a change of backup eligibility was not refused")
            return
        }
        data = vector.authentication("authenticatorData")
        data[32] = (data[32] | 0x10) & ~0x08
        let stored = RegisteredCredential(
            id: credential.id, publicKey: credential.publicKey, algorithm: credential.algorithm, signCount: 0, userVerified: false,
            backupEligible: false, backedUp: false, aaguid: credential.aaguid, attestationFormat: "none", attestationTrust: .none)
        guard case .malformed = Self.assertion(party, vector, stored, authenticatorData: data) else {
            Issue.record("BS without BE was not refused")
            return
        }
        let elsewhere = RelyingParty(id: "example.com", origins: ["https://example.org"])
        #expect(Self.assertion(elsewhere, vector, credential) == .mismatch("the authenticator data is for another relying party ID"))
    }

    @Test("a signature counter that does not increase is refused as a possible clone")
    func counter() async throws {
        let (party, vector, credential) = try await Self.registered()
        let ahead = RegisteredCredential(
            id: credential.id, publicKey: credential.publicKey, algorithm: credential.algorithm, signCount: 7,
            userVerified: credential.userVerified, backupEligible: credential.backupEligible, backedUp: credential.backedUp,
            aaguid: credential.aaguid, attestationFormat: credential.attestationFormat, attestationTrust: credential.attestationTrust)
        #expect(Self.assertion(party, vector, ahead) == .signCountNotIncreased(stored: 7, received: 0))
    }

    @Test("attestation objects cut short, with bytes after them, of indefinite lengths or repeated keys, or claiming huge maps")
    func malformedAttestationObjects() async throws {
        let party = try RelyingPartyTests.party()
        let vector = try Self.vector()
        let object = vector.registration("attestationObject")
        let cases: [(String, [UInt8])] = [
            ("cut short", Array(object.dropLast(10))), ("trailing bytes", object + [0x00]), ("empty", []),
            // A map of 2^32 entries in five bytes: refused before libcbor would allocate for it.
            ("huge map", [0xBA, 0xFF, 0xFF, 0xFF, 0xFF]),
            ("indefinite map", [0xBF, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0xFF]),
            (
                "repeated key",
                [0xA2, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8)
            ),
            ("not a map", [0x80]), ("text that is not UTF-8", [0xA1, 0x63, 0x66, 0xFF, 0x74, 0x01]),
        ]
        for (name, bytes) in cases {
            let error = await #expect(throws: WebAuthnError.self, "\(name)") {
                try await party.verifyRegistration(
                    clientDataJSON: vector.registration("clientDataJSON"), attestationObject: bytes, challenge: vector.registration("challenge"),
                    userVerification: .preferred, now: RelyingPartyTests.now)
            }
            guard case .malformed = error else {
                Issue.record("\(name): \(String(describing: error))")
                continue
            }
        }
    }
}

/// Tests/Fuzz/Regressions/FuzzWebAuthn/cose-key-with-half-floats: libcbor 0.8 asserts (and aborts
/// the process) when a float is asked whether it is a boolean or null.
@Suite("CBOR floats and simple values in a COSE key")
struct CBORFloatTests {
    @Test(
        "floats of every width and simple values are refused as a key's fields, never a crash",
        arguments: [
            [0xF9, 0x3C, 0x00], [0xFA, 0x3F, 0x80, 0x00, 0x00], [0xFB, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0], [0xF5], [0xF6], [0xF7], [0xF8, 0x20],
        ]
            as [[UInt8]])
    func floats(_ value: [UInt8]) {
        // {1: value, 3: -7}: a key type that is no integer.
        let key: [UInt8] = [0xA2, 0x01] + value + [0x03, 0x26]
        let error = #expect(throws: WebAuthnError.self) { try COSEKey(key) }
        guard case .malformed(let detail) = error, detail.hasPrefix("the credential public key") else {
            Issue.record("\(String(describing: error))")
            return
        }
    }
}

/// Nesting no WebAuthn structure has is refused by the walk before libcbor builds it (libcbor
/// itself would build up to 2048 levels, and free them recursively).
@Suite("CBOR nested deep")
struct CBORDepthTests {
    @Test("arrays and maps nested past 16 levels are refused before libcbor builds them", arguments: [17, 100, 100_000])
    func deep(_ levels: Int) {
        for opener in [[0x81], [0xA1, 0x01]] as [[UInt8]] {
            let key = Array([[UInt8]](repeating: opener, count: levels).joined()) + [0x01]
            let error = #expect(throws: WebAuthnError.self) { try COSEKey(key) }
            guard case .malformed(let detail) = error, detail.contains("not well-formed CBOR") else {
                Issue.record("\(levels) levels of \(opener): \(String(describing: error))")
                continue
            }
        }
    }

    @Test("16 levels are read (and then refused as no key)")
    func sixteen() {
        let key = Array([[UInt8]](repeating: [0x81], count: 16).joined()) + [0x01]
        #expect(throws: WebAuthnError.malformed("the credential public key lacks its key type (1) or algorithm (3)")) { try COSEKey(key) }
    }
}
