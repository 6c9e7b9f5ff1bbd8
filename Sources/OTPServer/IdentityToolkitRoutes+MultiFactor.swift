internal import Hummingbird
internal import OTPAuthentication

extension IdentityToolkitRoutes {
    static let multiFactorPaths = ["/identitytoolkit.googleapis.com/v2/accounts/", "/v2/accounts/"]

    /// The v2 multi-factor endpoints, at the emulator path scheme the SDKs build
    /// (`/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start`) and at the bare
    /// `/v2/accounts/…`; under the emulator also the list of codes sent.
    func addMultiFactorRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        func endpoint(_ name: String, _ handler: @escaping ClientHandler) { v2(router, name, handler) }
        endpoint("mfaEnrollment:start") { body, source throws(IdentityToolkitError) in try await routes.startEnrollment(body, source: source) }
        endpoint("mfaEnrollment:finalize") { body, source throws(IdentityToolkitError) in
            try await routes.finalizeEnrollment(body, source: source)
        }
        endpoint("mfaEnrollment:withdraw") { body, _ throws(IdentityToolkitError) in try await routes.withdraw(body) }
        endpoint("mfaSignIn:start") { body, source throws(IdentityToolkitError) in try await routes.startMultiFactorSignIn(body, source: source) }
        endpoint("mfaSignIn:finalize") { body, source throws(IdentityToolkitError) in
            try await routes.finalizeMultiFactorSignIn(body, source: source)
        }
        endpoint("mfaRecoveryCodes:generate") { body, _ throws(IdentityToolkitError) in try await routes.generateRecoveryCodes(body) }
    }

    /// A v2 client endpoint (`accounts/NAME`) at both path schemes.
    func v2<Context: RequestContext>(_ router: Router<Context>, _ name: String, _ handler: @escaping ClientHandler) {
        client(router, paths: Self.multiFactorPaths.map { $0 + name }, handler)
    }

    // MARK: Enrollment

    /// `mfaEnrollment:start`: a TOTP secret for `totpEnrollmentInfo`, or a code sent to the number of
    /// `phoneEnrollmentInfo`; the user's ID token must name a live session of this server. A text
    /// message counts against the client address's limit before it is asked for.
    func startEnrollment(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.EnrollmentStartResponse {
        let request = try body.decode(Wire.EnrollmentStartRequest.self)
        let (user, _) = try await tokenUser(request.idToken)
        let session = try await call { () async throws(AuthError) in try await user.multiFactor.session() }
        switch (request.totpEnrollmentInfo, request.phoneEnrollmentInfo, request.webauthnEnrollmentInfo) {
        case (.some, nil, nil):
            let secret = try await call { () async throws(AuthError) in try await TOTPMultiFactorGenerator.generateSecret(with: session) }
            return Wire.EnrollmentStartResponse(
                totpSessionInfo: .init(
                    sharedSecretKey: secret.sharedSecretKey(), verificationCodeLength: secret.codeLength, hashingAlgorithm: secret.hashingAlgorithm,
                    periodSec: secret.codeIntervalSeconds, sessionInfo: secret.sessionInfo,
                    finalizeEnrollmentTime: WireMultiFactorInfo.timestamp(secret.enrollmentCompletionDeadlineTime)))
        case (nil, .some(let phone), nil):
            // The emulator answers a missing number as a malformed one, "matching production".
            guard let number = phone.phoneNumber, !number.isEmpty else { throw IdentityToolkitError("INVALID_PHONE_NUMBER", "Invalid format.") }
            try await throttle.admit(.codeSend, address: source)
            let sessionInfo = try await sendingCode { () async throws(IdentityToolkitError) in
                try await call { () async throws(AuthError) in
                    try await PhoneAuthProvider.provider().verifyPhoneNumber(number, multiFactorSession: session)
                }
            }
            return Wire.EnrollmentStartResponse(phoneSessionInfo: .init(sessionInfo: sessionInfo))
        case (nil, nil, .some):
            let options = try await call { () async throws(AuthError) in try await WebAuthnMultiFactorGenerator.creationOptions(with: session) }
            return Wire.EnrollmentStartResponse(webauthnSessionInfo: .init(credentialCreationOptions: Wire.CreationOptions(options)))
        default:
            throw IdentityToolkitError("INVALID_ARGUMENT", "give exactly one of phoneEnrollmentInfo, totpEnrollmentInfo and webauthnEnrollmentInfo")
        }
    }

    /// `mfaEnrollment:finalize`: enrolls the factor the code proves and answers the session's new
    /// tokens (the service has revoked the user's other sessions). The code counts against the
    /// client address's and the user's limits before it is checked.
    func finalizeEnrollment(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.TokensResponse {
        let request = try body.decode(Wire.EnrollmentFinalizeRequest.self)
        try await throttle.admit(.verification, address: source)
        let claims = try await tokenClaims(request.idToken)
        try await throttle.admit(.verification, account: claims.subject)
        let (user, _) = try await sessionUser(claims)
        let assertion: any MultiFactorAssertion
        switch (request.totpVerificationInfo, request.phoneVerificationInfo, request.webauthnVerificationInfo) {
        case (.some(let totp), nil, nil):
            assertion = TOTPMultiFactorGenerator.assertionForEnrollment(
                withSessionInfo: totp.sessionInfo ?? "", oneTimePassword: totp.verificationCode ?? "")
        case (nil, .some(let phone), nil):
            assertion = PhoneMultiFactorGenerator.assertion(with: Self.phoneCredential(phone))
        case (nil, nil, .some(let webauthn)):
            assertion = WebAuthnMultiFactorGenerator.assertionForEnrollment(with: try Wire.registration(webauthn.authenticatorRegistrationResponse))
        default:
            throw IdentityToolkitError(
                "INVALID_ARGUMENT", "give exactly one of phoneVerificationInfo, totpVerificationInfo and webauthnVerificationInfo")
        }
        // JS may send "displayName": null; an empty name is no name.
        let displayName = request.displayName.flatMap { $0.isEmpty ? nil : $0 }
        do {
            try await call { () async throws(AuthError) in try await user.multiFactor.enroll(with: assertion, displayName: displayName) }
        } catch {
            // A server failure decided nothing about the code.
            if error.status.code < 500 { metrics.verified(.enrollment, accepted: false) }
            throw error
        }
        metrics.verified(.enrollment, accepted: true)
        if let sessionInfo = request.phoneVerificationInfo?.sessionInfo { verificationCodes?.remove(sessionInfo: sessionInfo) }
        return try await sessionTokens(user)
    }

    /// `mfaEnrollment:withdraw`: removes a factor and answers the session's new tokens. Withdrawing
    /// the factor this session signed in with ends the session: the factor is removed and the
    /// answer is `INVALID_ID_TOKEN`, as the SDKs then sign the user out.
    func withdraw(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.TokensResponse {
        let request = try body.decode(Wire.WithdrawRequest.self)
        let (user, _) = try await tokenUser(request.idToken)
        guard let enrollmentID = request.mfaEnrollmentId, !enrollmentID.isEmpty else {
            throw IdentityToolkitError("MISSING_MFA_ENROLLMENT_ID", "give the mfaEnrollmentId of the factor to withdraw")
        }
        try await call { () async throws(AuthError) in try await user.multiFactor.unenroll(withFactorUID: enrollmentID) }
        return try await sessionTokens(user)
    }

    /// `mfaRecoveryCodes:generate`, OTPKit's own addition: ten new single-use recovery codes for
    /// the user of the ID token, shown once, voiding the previous set. Each completes a sign-in at
    /// `mfaSignIn:finalize` once.
    func generateRecoveryCodes(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.RecoveryCodesResponse {
        let request = try body.decode(Wire.RecoveryCodesRequest.self)
        let (user, _) = try await tokenUser(request.idToken)
        let session = try await call { () async throws(AuthError) in try await user.multiFactor.session() }
        let codes = try await call { () async throws(AuthError) in try await RecoveryCodeMultiFactorGenerator.generateCodes(with: session) }
        return Wire.RecoveryCodesResponse(recoveryCodes: codes)
    }

    // MARK: Shared steps

    /// The signed-in user an ID token's session names: `MISSING_ID_TOKEN`, the token's own errors,
    /// `INVALID_ID_TOKEN` for a token naming no session, then ``sessionUser(sessionID:userID:)``'s.
    func tokenUser(_ idToken: String?) async throws(IdentityToolkitError) -> (User, AccountRecord) {
        try await sessionUser(try await tokenClaims(idToken))
    }

    /// The verified claims of a client's ID token: `MISSING_ID_TOKEN`, or the token's own errors.
    func tokenClaims(_ idToken: String?) async throws(IdentityToolkitError) -> IDTokenClaims {
        guard let idToken, !idToken.isEmpty else { throw IdentityToolkitError("MISSING_ID_TOKEN", "give the user's ID token") }
        return try await verified(idToken)
    }

    /// The signed-in user of verified claims: `INVALID_ID_TOKEN` for claims naming no session,
    /// then ``sessionUser(sessionID:userID:)``'s.
    func sessionUser(_ claims: IDTokenClaims) async throws(IdentityToolkitError) -> (User, AccountRecord) {
        guard let sessionID = claims.sessionID, !sessionID.isEmpty else {
            throw IdentityToolkitError("INVALID_ID_TOKEN", "the ID token names no session of this server: sign in again")
        }
        return try await sessionUser(sessionID: sessionID, userID: claims.subject)
    }

    /// New tokens for a session that continues, `auth_time` still its first factor's.
    func sessionTokens(_ user: User) async throws(IdentityToolkitError) -> Wire.TokensResponse {
        Wire.TokensResponse(idToken: try await idToken(for: user), refreshToken: try refreshToken(for: user))
    }

    /// Runs a call that may send a code: under the emulator, through the outbox, which files the
    /// code under the session info the call returns.
    func sendingCode(_ send: () async throws(IdentityToolkitError) -> String) async throws(IdentityToolkitError) -> String {
        guard let verificationCodes else { return try await send() }
        return try await verificationCodes.recording(send)
    }

    static func phoneCredential(_ info: Wire.PhoneVerificationInfo) -> PhoneAuthCredential {
        PhoneAuthProvider.provider().credential(withVerificationID: info.sessionInfo ?? "", verificationCode: info.code ?? "")
    }
}
