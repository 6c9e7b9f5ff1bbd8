import Foundation
import FuzzSupport
import OTPWebAuthn

/// libFuzzer entry point: what a browser or an authenticator sends a relying party, through
/// OTPWebAuthn's parsers (libcbor underneath) and checks. The first byte chooses:
/// - `A`: the rest as authenticator data;
/// - `K`: the rest as a COSE credential public key;
/// - `C`: the rest as client data JSON;
/// - `R`: the rest as the attestation object of a registration whose client data and challenge are
///   W3C test vector none-es256's (so that parsing and attestation checks run);
/// - anything else: the rest as the authenticator data of an assertion with that vector's client
///   data, signature and credential.
///
/// Nothing may crash, every refusal says why, and an assertion only verifies with the authenticator
/// data that was signed: any other bytes verifying would be a forged signature.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebAuthn(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let rest = Array(input.dropFirst())
    switch input[0] {
    case UInt8(ascii: "A"):
        refusalSaysWhy { () throws(WebAuthnError) in _ = try AuthenticatorData(rest) }
    case UInt8(ascii: "K"):
        refusalSaysWhy { () throws(WebAuthnError) in _ = try COSEKey(rest) }
    case UInt8(ascii: "C"):
        refusalSaysWhy { () throws(WebAuthnError) in _ = try CollectedClientData(rest) }
    case UInt8(ascii: "R"):
        runBlocking {
            do throws(WebAuthnError) {
                _ = try await Vector.party.verifyRegistration(
                    clientDataJSON: Vector.registrationClientData, attestationObject: rest, challenge: Vector.registrationChallenge,
                    userVerification: .preferred, now: Vector.now)
            } catch {
                check(!error.description.isEmpty, "a refusal without a reason")
            }
        }
    default:
        do {
            _ = try Vector.party.verifyAssertion(
                clientDataJSON: Vector.assertionClientData, authenticatorData: rest, signature: Vector.signature,
                challenge: Vector.assertionChallenge, userVerification: .preferred, credential: Vector.credential)
            check(rest == Vector.authenticatorData, "an assertion verified with authenticator data that was not signed")
        } catch {
            check(!error.description.isEmpty, "a refusal without a reason")
        }
    }
    return 0
}

private func refusalSaysWhy(_ body: () throws(WebAuthnError) -> Void) {
    do {
        try body()
    } catch {
        check(!error.description.isEmpty, "a refusal without a reason")
    }
}

/// W3C Web Authentication Level 3's test vector none-es256 (section "Test Vectors").
enum Vector {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)
    static let party = RelyingParty(id: "example.org", origins: ["https://example.org"])
    static let registrationChallenge = hex("00c30fb78531c464d2b6771dab8d7b603c01162f2fa486bea70f283ae556e130")
    static let registrationClientData = Array(
        #"{"type":"webauthn.create","challenge":"AMMPt4UxxGTStncdq417YDwBFi8vpIa-pw8oOuVW4TA","origin":"https://example.org","crossOrigin":false,"extraData":"clientDataJSON may be extended with additional fields in the future, such as this: BkQeDjdcTBrXBiAwJTLE5Q"}"#
            .utf8)
    static let assertionChallenge = hex("39c0e7521417ba54d43e8dc95174f423dee9bf3cd804ff6d65c857c9abf4d408")
    static let assertionClientData = Array(
        #"{"type":"webauthn.get","challenge":"OcDnUhQXulTUPo3JUXT0I97pvzzYBP9tZchXyav01Ag","origin":"https://example.org","crossOrigin":false}"#.utf8)
    static let authenticatorData = hex("bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b51900000000")
    static let signature = hex(
        "3046022100f50a4e2e4409249c4a853ba361282f09841df4dd4547a13a87780218deffcd380221008480ac0f0b93538174f575bf11a1dd5d78c6e486013f937295ea13653e331e87"
    )
    static let credential = RegisteredCredential(
        id: hex("f91f391db4c9b2fde0ea70189cba3fb63f579ba6122b33ad94ff3ec330084be4"),
        publicKey: hex(
            "a5010203262001215820afefa16f97ca9b2d23eb86ccb64098d20db90856062eb249c33a9b672f26df61225820930a56b87a2fca66334b03458abf879717c12cc68ed73290af2e2664796b9220"
        ), algorithm: .es256, signCount: 0, userVerified: false, backupEligible: true, backedUp: true,
        aaguid: hex("8446ccb9ab1db374750b2367ff6f3a1f"), attestationFormat: "none", attestationTrust: .none)

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
