internal import Hummingbird
internal import OTPAuthentication

// The phone number as a first factor (`IDENTITY-TOOLKIT.md` C.8): a code sent to the number, then
// a sign-in with it, or a link of the number to the signed-in user.
extension IdentityToolkitRoutes {
    func addPhoneRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        client(router, paths: [Self.identityToolkit + "/accounts:sendVerificationCode", Self.relyingParty + "/sendVerificationCode"]) {
            body, source throws(IdentityToolkitError) in try await routes.sendVerificationCode(body, source: source)
        }
        client(router, paths: [Self.identityToolkit + "/accounts:signInWithPhoneNumber", Self.relyingParty + "/verifyPhoneNumber"]) {
            body, source throws(IdentityToolkitError) in try await routes.signInWithPhoneNumber(body, source: source)
        }
    }

    /// Sends a code to the number: its `sessionInfo` is the verification id. The message counts
    /// against the client address's limit before it is asked for; under the emulator the code is
    /// listed, not sent.
    func sendVerificationCode(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.SendVerificationCodeResponse {
        let request = try body.decode(Wire.SendVerificationCodeRequest.self)
        guard let number = request.phoneNumber, !number.isEmpty else {
            throw IdentityToolkitError("MISSING_PHONE_NUMBER", "give phoneNumber, in international form such as +12015550123")
        }
        try await throttle.admit(.codeSend, address: source)
        let provider = PhoneAuthProvider.provider(service: service)
        let sessionInfo = try await sendingCode { () async throws(IdentityToolkitError) in
            try await call { () async throws(AuthError) in try await provider.verifyPhoneNumber(number) }
        }
        return Wire.SendVerificationCodeResponse(sessionInfo: sessionInfo)
    }

    /// Signs in with the code (the account the number is linked to, or a new one), or with
    /// `idToken` links the number to that user. The code counts against the client address's
    /// limit before it is checked.
    func signInWithPhoneNumber(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.SignInWithPhoneNumberResponse {
        let request = try body.decode(Wire.SignInWithPhoneNumberRequest.self)
        if request.temporaryProof != nil {
            throw IdentityToolkitError(
                "INVALID_TEMPORARY_PROOF", "this server issues no temporary proofs: send sessionInfo and code from a new text message")
        }
        guard let sessionInfo = request.sessionInfo, !sessionInfo.isEmpty else {
            throw IdentityToolkitError("MISSING_SESSION_INFO", "give sessionInfo, the value accounts:sendVerificationCode answered")
        }
        guard let code = request.code, !code.isEmpty else {
            throw IdentityToolkitError("MISSING_CODE", "give code, the six digits of the text message")
        }
        try await throttle.admit(.verification, address: source)
        let credential = PhoneAuthProvider.provider(service: service).credential(withVerificationID: sessionInfo, verificationCode: code)
        let result: AuthDataResult
        if let idToken = request.idToken, !idToken.isEmpty {
            let (user, _) = try await tokenUser(idToken)
            result = try await call { () async throws(AuthError) in try await user.link(with: credential) }
        } else {
            do {
                result = try await service.signIn(with: credential)
            } catch {
                guard error.code == .secondFactorRequired, let resolver = error.resolver else { throw IdentityToolkitError(error) }
                var response = Wire.SignInWithPhoneNumberResponse(localId: resolver.uid, isNewUser: false)
                (response.mfaPendingCredential, response.mfaInfo) = multiFactorChallenge(resolver)
                return response
            }
        }
        let user = result.user
        return Wire.SignInWithPhoneNumberResponse(
            localId: user.uid, phoneNumber: user.providerData.first { $0.providerID == PhoneAuthProvider.id }?.phoneNumber,
            isNewUser: result.isNewUser, idToken: try await idToken(for: user), refreshToken: try refreshToken(for: user),
            expiresIn: String(tokens.lifetime))
    }
}
