import Benchmark
import BenchmarkWorkload
import Crypto
import Foundation
import OTPWebAuthn

// A passkey sign-in's verification (RelyingParty.verifyAssertion: client data parsed and checked,
// authenticator data parsed, the COSE key read, the signature verified) against its limit, the bare
// signature verification of the same bytes with swift-crypto, in the same run. The assertions are
// W3C Web Authentication Level 3's test vectors (TestVectors/webauthn-level3.json): ES256, what
// platform authenticators make, and Ed25519.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Workload.configuration
    let es256 = Assertion("sctn-test-vectors-none-es256")
    // The COSE key's x and y (RFC 9053 EC2: a5 01 02 03 26 20 01 21 58 20 x 22 58 20 y).
    let p256 = try! P256.Signing.PublicKey(x963Representation: [0x04] + es256.publicKey[10..<42] + es256.publicKey[45..<77])
    let p256Signature = try! P256.Signing.ECDSASignature(derRepresentation: es256.signature)
    Benchmark("limit.verify.p256") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(p256.isValidSignature(p256Signature, for: es256.signed)) }
    }
    Benchmark("otpkit.passkey.assertion.es256") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! es256.verify()) }
    }

    let eddsa = Assertion("sctn-test-vectors-packed-eddsa")
    // The COSE key's x (RFC 9053 OKP: a4 01 01 03 27 20 06 21 58 20 x).
    let ed25519 = try! Curve25519.Signing.PublicKey(rawRepresentation: eddsa.publicKey[10..<42])
    Benchmark("limit.verify.ed25519") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(ed25519.isValidSignature(eddsa.signature, for: eddsa.signed)) }
    }
    Benchmark("otpkit.passkey.assertion.eddsa") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! eddsa.verify()) }
    }
}

/// One test vector's assertion and the credential its registration made.
struct Assertion {
    static let party = RelyingParty(id: "example.org", origins: ["https://example.org"])

    let publicKey: [UInt8]
    let credential: RegisteredCredential
    let clientData: [UInt8]
    let authenticatorData: [UInt8]
    let challenge: [UInt8]
    let signature: [UInt8]
    let signed: [UInt8]

    init(_ anchor: String) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../TestVectors/webauthn-level3.json")
        let file = try! JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: url))
        let vector = file.vectors.first { $0.anchor == anchor }!
        let data = try! AuthenticatorData(Self.authenticatorData(of: hex(vector.registration["attestationObject"]!)))
        publicKey = data.attestedCredential!.publicKey
        credential = RegisteredCredential(
            id: data.attestedCredential!.credentialID, publicKey: publicKey, algorithm: try! COSEKey(publicKey).algorithm, signCount: 0,
            userVerified: false, backupEligible: data.flags.contains(.backupEligible), backedUp: data.flags.contains(.backedUp),
            aaguid: data.attestedCredential!.aaguid, attestationFormat: "none", attestationTrust: .none)
        clientData = hex(vector.authentication["clientDataJSON"]!)
        authenticatorData = hex(vector.authentication["authenticatorData"]!)
        challenge = hex(vector.authentication["challenge"]!)
        signature = hex(vector.authentication["signature"]!)
        signed = authenticatorData + Array(SHA256.hash(data: clientData))
    }

    /// The authData byte string of an attestation object: after its text key, a CBOR byte string
    /// head with one (0x58) or two (0x59) length bytes.
    static func authenticatorData(of object: [UInt8]) -> [UInt8] {
        let key = Array("hauthData".utf8)
        let start = (0...(object.count - key.count)).first { Array(object[$0..<$0 + key.count]) == key }! + key.count
        let (length, offset) =
            object[start] == 0x58 ? (Int(object[start + 1]), start + 2) : (Int(object[start + 1]) << 8 | Int(object[start + 2]), start + 3)
        return Array(object[offset..<offset + length])
    }

    func verify() throws -> VerifiedAssertion {
        try Self.party.verifyAssertion(
            clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature, challenge: challenge,
            userVerification: .preferred, credential: credential)
    }
}

struct VectorFile: Decodable {
    struct Vector: Decodable {
        let anchor: String
        let registration: [String: String]
        let authentication: [String: String]
    }
    let vectors: [Vector]
}

func hex(_ text: String) -> [UInt8] {
    stride(from: 0, to: text.count, by: 2).map { offset in
        let start = text.index(text.startIndex, offsetBy: offset)
        return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
    }
}
