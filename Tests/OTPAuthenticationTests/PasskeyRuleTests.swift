import Logging
import OTPAuthentication
import OTPCore
import OTPTestUtilities
import OTPWebAuthn
import Testing

/// The rules of passkeys as a first factor, through the service, with credentials made by the
/// Python authenticator on pyca `cryptography` (Tests/WebAuthnClients/authenticator.py).
@Suite struct PasskeyRuleTests {
    static let origin = "http://localhost:9099"

    /// A service whose passkeys need user verification only when `userVerification` says so.
    struct Setup {
        let clock = ManualAuthClock(1_800_000_000)
        let store = InMemoryAuthStore()
        let log = CapturedLog()
        let service: MultiFactorService

        init(userVerification: UserVerification = .required, maximumPerUser: Int = 10) throws {
            var configuration = MultiFactorConfiguration(
                passwords: PasswordSettings(hashParameters: try PasswordHashParameters(logN: 10, r: 8, p: 1)))
            configuration.passkeys = PasskeySettings(
                relyingPartyID: "localhost", origins: [PasskeyRuleTests.origin], userVerification: userVerification, maximumPerUser: maximumPerUser)
            service = try MultiFactorService(configuration: configuration, store: store, clock: clock, logger: log.logger)
        }

        /// Registers a passkey for `user` (user verified unless `verified` is false) and makes an
        /// assertion for each of `signIns` sign-in starts: the assertions, in order.
        func register(_ user: User, signIns: Int, verified: Bool = true) async throws -> [PasskeyAssertionResponse] {
            var challenges: [[UInt8]] = []
            for _ in 0..<signIns { challenges.append(try await service.startPasskeySignIn().challenge) }
            let options = try await user.startPasskeyEnrollment()
            let output = try await authenticator(options, signIns: challenges, verified: verified)
            let id = try hex(output.rawId)
            try await user.finalizePasskeyEnrollment(
                PasskeyRegistrationResponse(
                    credentialID: id, clientDataJSON: try hex(output.clientDataJSON), attestationObject: try hex(output.attestationObject)),
                name: "Laptop")
            return try output.assertions.map { assertion in
                PasskeyAssertionResponse(
                    credentialID: id, clientDataJSON: try hex(assertion.clientDataJSON), authenticatorData: try hex(assertion.authenticatorData),
                    signature: try hex(assertion.signature), userHandle: try hex(assertion.userHandle))
            }
        }

        /// Runs `authenticator.py` (ES256, attestation none) for `registration` and an assertion per
        /// sign-in challenge, with the key of an `earlier` run when given.
        func authenticator(
            _ registration: PasskeyCreationOptions, signIns: [[UInt8]], verified: Bool, reusing earlier: PythonAuthenticator.Output? = nil
        ) async throws -> PythonAuthenticator.Output {
            var request: [String: Any] = [
                "rpId": "localhost", "origin": PasskeyRuleTests.origin, "algorithm": -7, "attestation": "none",
                "userHandle": Hex.encode(registration.userHandle), "flags": ["uv": verified, "be": false, "bs": false],
                "registrationChallenge": Hex.encode(registration.challenge), "assertionChallenges": signIns.map { Hex.encode($0) },
            ]
            if let earlier {
                request["privateKey"] = earlier.privateKey
                request["credentialId"] = earlier.rawId
            }
            return try await PythonAuthenticator.run("authenticator.py", request)
        }

        func code(_ call: () async throws(AuthError) -> some Any) async -> AuthErrorCode? {
            do {
                _ = try await call()
                return nil
            } catch {
                return error.code
            }
        }
    }

    static func hex(_ text: String) throws -> [UInt8] { try #require(Hex.decode(text)) }

    @Test func aCounterThatGoesBackIsRefusedLoggedAndChangesNothing() async throws {
        let setup = try Setup()
        let user = try await setup.service.signInAnonymously()
        let assertions = try await setup.register(user, signIns: 2)
        let signedIn = try await setup.service.finalizePasskeySignIn(assertions[1])
        #expect(signedIn.user.uid == user.uid && signedIn.user.providerID == "passkey")
        let passkeyID = assertions[0].credentialID
        #expect(
            await setup.code { () async throws(AuthError) in try await setup.service.finalizePasskeySignIn(assertions[0]) }
                == .invalidAuthenticatorResponse)
        #expect(try await setup.store.passkey(credentialID: passkeyID)?.signCount == 2)
        #expect(
            setup.log.entries.contains { $0.level == .warning && $0.message.contains("possibly cloned") && $0.fields.contains(user.uid) },
            "\(setup.log.text)")
        #expect(!setup.log.text.contains(Hex.encode(passkeyID)), "no credential in the log")
    }

    @Test func aDisabledAccountADeletedOneAndAHostIdentityHaveNoPasskeySignIn() async throws {
        let setup = try Setup()
        let user = try await setup.service.signInAnonymously()
        let assertions = try await setup.register(user, signIns: 2)
        _ = try await setup.service.administration.updateAccount(id: user.uid, isDisabled: true)
        #expect(await setup.code { () async throws(AuthError) in try await setup.service.finalizePasskeySignIn(assertions[0]) } == .userDisabled)
        _ = try await setup.service.administration.deleteAccount(id: user.uid)
        #expect(
            await setup.code { () async throws(AuthError) in try await setup.service.finalizePasskeySignIn(assertions[1]) }
                == .missingPasskeyEnrollment,
            "deleting the account deleted its passkey")

        let host = try await setup.service.signIn(FirstFactorIdentity(userID: "host-1", email: nil, isEmailVerified: false, provider: .password))
        #expect(await setup.code { () async throws(AuthError) in try await host.startPasskeyEnrollment() } == .operationNotAllowed)
    }

    @Test func registeringNeedsARecentSignInAndStopsAtTheLimit() async throws {
        let setup = try Setup(maximumPerUser: 1)
        let user = try await setup.service.signInAnonymously()
        _ = try await setup.register(user, signIns: 0)
        #expect(await setup.code { () async throws(AuthError) in try await user.startPasskeyEnrollment() } == .passkeyLimitExceeded)
        let late = try await setup.service.signInAnonymously()
        setup.clock.advance(by: 301)
        #expect(await setup.code { () async throws(AuthError) in try await late.startPasskeyEnrollment() } == .requiresRecentLogin)
        #expect(try await late.enrolledPasskeys().isEmpty)
        #expect(try await user.enrolledPasskeys().map(\.name) == ["Laptop"])
    }

    @Test func withoutUserVerificationOnlyAnAccountWithoutSecondFactorsSignsIn() async throws {
        let setup = try Setup(userVerification: .preferred)
        _ = try await setup.service.administration.createAccount(
            id: nil, email: "ada@example.com", password: "long enough", displayName: nil, photoURL: nil, isEmailVerified: true, isDisabled: false)
        let user = try await setup.service.signIn(withEmail: "ada@example.com", password: "long enough")
        let assertions = try await setup.register(user, signIns: 2, verified: false)
        #expect(try await setup.service.finalizePasskeySignIn(assertions[0]).user.uid == user.uid, "no second factor: signed in")

        let session = try await user.multiFactor.session()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
        let code = try TOTP(secret: try OTPSecret(base32: secret.sharedSecretKey())).code(at: setup.clock.now())
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: nil)
        #expect(
            await setup.code { () async throws(AuthError) in try await setup.service.finalizePasskeySignIn(assertions[1]) }
                == .invalidAuthenticatorResponse,
            "with a second factor, a passkey that did not verify the user is one factor")
    }

    /// OTPKit's extension: a passkey (here one that does not verify the user, as a security key
    /// without a PIN) as the second factor after a password.
    @Test func aPasskeyFactorCompletesASignInAfterThePasswordAndCountsWrongResponses() async throws {
        let setup = try Setup()
        _ = try await setup.service.administration.createAccount(
            id: nil, email: "bo@example.com", password: "long enough", displayName: nil, photoURL: nil, isEmailVerified: true, isDisabled: false)
        let user = try await setup.service.signIn(withEmail: "bo@example.com", password: "long enough")
        let options = try await WebAuthnMultiFactorGenerator.creationOptions(with: try await user.multiFactor.session())
        #expect(!options.requiresResidentKey && options.userVerification == .preferred)
        let key = try await setup.authenticator(options, signIns: [], verified: false)
        let credentialID = try Self.hex(key.rawId)
        try await user.multiFactor.enroll(
            with: WebAuthnMultiFactorGenerator.assertionForEnrollment(
                with: PasskeyRegistrationResponse(
                    credentialID: credentialID, clientDataJSON: try Self.hex(key.clientDataJSON),
                    attestationObject: try Self.hex(key.attestationObject))),
            displayName: "Security key")
        let factor = try #require(user.multiFactor.enrolledFactors.first)
        #expect(factor.factorID == "webauthn" && factor.displayName == "Security key")

        func resolver() async throws -> MultiFactorResolver {
            do {
                _ = try await setup.service.signIn(withEmail: "bo@example.com", password: "long enough")
            } catch  where error.code == .secondFactorRequired {
                return try #require(error.resolver)
            }
            throw AuthError(.internalError, "the password alone signed in")
        }
        let first = try await resolver()
        #expect(first.hints.map(\.uid) == [factor.uid])
        let request = try await WebAuthnMultiFactorGenerator.requestOptions(for: first, enrollmentID: factor.uid)
        #expect(request.allowedCredentials == [credentialID] && request.userVerification == .preferred)
        let signedIn = try await setup.authenticator(options, signIns: [request.challenge], verified: false, reusing: key)
        func response(_ output: PythonAuthenticator.Output, signature: [UInt8]? = nil) throws -> PasskeyAssertionResponse {
            let assertion = output.assertions[0]
            return PasskeyAssertionResponse(
                credentialID: credentialID, clientDataJSON: try Self.hex(assertion.clientDataJSON),
                authenticatorData: try Self.hex(assertion.authenticatorData),
                signature: try signature ?? Self.hex(assertion.signature), userHandle: try Self.hex(assertion.userHandle))
        }
        let result = try await first.resolveSignIn(
            with: WebAuthnMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factor.uid, response: try response(signedIn)))
        #expect(result.user.uid == user.uid && result.user.signInSecondFactor == "webauthn" && result.user.secondFactorIdentifier == factor.uid)

        // A bad signature is a wrong code: counted against the factor.
        let second = try await resolver()
        let again = try await WebAuthnMultiFactorGenerator.requestOptions(for: second, enrollmentID: factor.uid)
        let bad = try await setup.authenticator(options, signIns: [again.challenge], verified: false, reusing: key)
        var signature = try Self.hex(bad.assertions[0].signature)
        signature[signature.count - 1] ^= 1
        let refused = await setup.code { () async throws(AuthError) in
            try await second.resolveSignIn(
                with: WebAuthnMultiFactorGenerator.assertionForSignIn(
                    withEnrollmentID: factor.uid, response: try! response(bad, signature: signature)))
        }
        #expect(refused == .invalidVerificationCode)
        #expect(try await setup.store.failureCounter(key: factor.uid).consecutiveFailures == 1)

        // One credential, one role: a second factor does not sign in alone.
        let alone = try await setup.authenticator(
            options, signIns: [try await setup.service.startPasskeySignIn().challenge], verified: false, reusing: key)
        #expect(
            await setup.code { () async throws(AuthError) in try await setup.service.finalizePasskeySignIn(try! response(alone)) }
                == .missingPasskeyEnrollment)
        try await user.multiFactor.renameFactor(withUID: factor.uid, to: "Blue key")
        #expect(try await resolver().hints.map(\.displayName) == ["Blue key"], "a renamed passkey factor in the hints")
        #expect(try await setup.store.passkeys(userID: user.uid).map(\.name) == ["Blue key"])
        try await user.multiFactor.unenroll(withFactorUID: factor.uid)
        #expect(try await setup.store.passkeys(userID: user.uid).isEmpty, "unenrolling removes the credential")
    }
}
