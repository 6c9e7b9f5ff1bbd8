@testable import OTPAuthentication
import Testing

@Suite("Factor kinds")
struct FactorKindTests {
    @Test("each kind has one handler, of that kind, and TOTP's leads, so a sign-in's prepared keys line up with its first hints")
    func handlersMatchTheirKinds() {
        #expect(MultiFactorService.factorHandlers.map(\.kind) == FactorKind.allCases)
        #expect(MultiFactorService.factorHandlers.first?.kind == .totp)
    }

    @Test("a factor's kind is read from Firebase's factor ids, and an id nobody here knows has none")
    func kindsOfFactorIDs() {
        func info(_ factorID: String) -> MultiFactorInfo {
            MultiFactorInfo(uid: "f", displayName: nil, enrollmentTime: 0, factorID: factorID)
        }
        #expect(info("totp").kind == .totp)
        #expect(info("phone").kind == .phone)
        #expect(info("recovery").kind == .recoveryCode)
        #expect(info("webauthn").kind == .webauthn)
        #expect(info("u2f").kind == nil)
        #expect(FactorKind.allCases.map(\.factorID) == [TOTPMultiFactorID, PhoneMultiFactorID, RecoveryCodeMultiFactorID, WebAuthnMultiFactorID])
    }

    @Test("an assertion of a kind this module does not make is refused with an error that says so, not taken for TOTP")
    func foreignAssertionsAreRefused() async throws {
        struct Foreign: MultiFactorAssertion { var factorID: String { "u2f" } }
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        let enrolling = await authErrorCode { try await user.multiFactor.enroll(with: Foreign(), displayName: nil) }
        #expect(enrolling == .operationNotAllowed)
        let (secret, _) = try await fixture.enroll(user)
        fixture.nextStep()
        let resolver = try await fixture.resolver()
        let resolving = await authErrorCode { _ = try await resolver.resolveSignIn(with: Foreign()) }
        #expect(resolving == .missingMultiFactorInfo)
        // Nothing was spent: the pending sign-in still completes with the TOTP code.
        let assertion = TOTPMultiFactorGenerator.assertionForSignIn(
            withEnrollmentID: resolver.hints[0].uid, oneTimePassword: try fixture.code(secret))
        #expect(try await resolver.resolveSignIn(with: assertion).secondFactor?.kind == .totp)
    }
}
