import Foundation
import OTPTestUtilities
import OTPWebAuthn
import Testing

/// Every input FuzzWebAuthn failed on (Tests/Fuzz/Regressions/FuzzWebAuthn), read as the target
/// reads it (its first byte chooses the parser; see Tests/Fuzz/Sources/FuzzWebAuthn): refused with
/// a reason, never a crash.
@Suite("Fuzzer regressions: WebAuthn")
struct FuzzerRegressionTests {
    static let directory = "Tests/Fuzz/Regressions/FuzzWebAuthn"

    @Test("each is read without a crash, and refused with a reason", arguments: try Fixture.fileNames(in: directory))
    func replay(_ name: String) async throws {
        let input = Array(try Fixture.data("\(Self.directory)/\(name)"))
        let rest = Array(input.dropFirst())
        let party = try RelyingPartyTests.party()
        let vector = try #require(try W3CTestVectors.named("none-es256").first)
        do {
            switch input.first {
            case UInt8(ascii: "A"): _ = try AuthenticatorData(rest)
            case UInt8(ascii: "K"): _ = try COSEKey(rest)
            case UInt8(ascii: "C"): _ = try CollectedClientData(rest)
            case UInt8(ascii: "R"):
                _ = try await party.verifyRegistration(
                    clientDataJSON: vector.registration("clientDataJSON"), attestationObject: rest, challenge: vector.registration("challenge"),
                    userVerification: .preferred, now: RelyingPartyTests.now)
            default:
                let credential = try await RelyingPartyTests.register(vector, with: party)
                _ = try party.verifyAssertion(
                    clientDataJSON: vector.authentication("clientDataJSON"), authenticatorData: rest, signature: vector.authentication("signature"),
                    challenge: vector.authentication("challenge"), userVerification: .preferred, credential: credential)
            }
            Issue.record("\(name) was accepted")
        } catch {
            #expect(!error.description.isEmpty, "\(name)")
        }
    }
}
