internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `accounts:sendOobCode` (iOS `getOobConfirmationCode`): a password reset or a sign-in link
    /// for an `email`, a verification of the address of the user of `idToken`, or a change of that
    /// user's address to `newEmail`. From an administrator (`projects/{p}/accounts:sendOobCode`, as
    /// firebase-admin's `generate_*_link` calls it) with `returnOobLink`, the link is answered
    /// instead of sent; a client may not ask for it (`INSUFFICIENT_PERMISSION`).
    func sendOobCode(_ body: JSONBody, source: String?, asAdministrator: Bool) async throws(IdentityToolkitError) -> Wire.SendOobCodeResponse {
        let request = try body.decode(Wire.SendOobCodeRequest.self)
        guard let requestType = request.requestType, !requestType.isEmpty else {
            throw IdentityToolkitError("MISSING_REQ_TYPE", "give requestType: PASSWORD_RESET, VERIFY_EMAIL, EMAIL_SIGNIN or VERIFY_AND_CHANGE_EMAIL")
        }
        guard let kind = EmailActionKind(rawValue: requestType) else {
            throw IdentityToolkitError(
                "INVALID_REQ_TYPE",
                "requestType \(requestType) is not served: use PASSWORD_RESET, VERIFY_EMAIL, EMAIL_SIGNIN or VERIFY_AND_CHANGE_EMAIL")
        }
        let returnsLink = request.returnOobLink == true
        if returnsLink, !asAdministrator {
            throw IdentityToolkitError(
                "INSUFFICIENT_PERMISSION", "returnOobLink is for an administrator: call projects/{project}/accounts:sendOobCode")
        }
        if let continueURL = request.continueUrl, continueURL.isEmpty {
            throw IdentityToolkitError("INVALID_CONTINUE_URI", "the continue URL is empty: give an absolute URL or leave it out")
        }
        let settings = ActionCodeSettings(continueURL: request.continueUrl, handlesCodeInApp: request.canHandleCodeInApp ?? false)
        if !returnsLink { try await throttle.admit(.emailSend, address: source) }
        // An administrator names the account by its address; a user by an ID token.
        if asAdministrator, request.idToken == nil || returnsLink {
            guard let email = request.email, !email.isEmpty else { throw IdentityToolkitError("MISSING_EMAIL", "give the account's email address") }
            if kind == .emailSignIn, request.continueUrl == nil {
                throw IdentityToolkitError("MISSING_CONTINUE_URI", "a sign-in link needs a continueUrl")
            }
            let link = try await call { () async throws(AuthError) in
                try await service.administration.emailActionLink(
                    kind, email: email, newEmail: request.newEmail, actionCodeSettings: settings, sending: !returnsLink)
            }
            return Wire.SendOobCodeResponse(
                email: link.email, oobCode: returnsLink ? link.code : nil, oobLink: returnsLink ? link.link : nil)
        }
        switch kind {
        case .passwordReset:
            let email = try Self.requiredEmail(request.email)
            try await call { () async throws(AuthError) in try await service.sendPasswordReset(withEmail: email, actionCodeSettings: settings) }
            return Wire.SendOobCodeResponse(email: EmailAddress.normalized(email))
        case .emailSignIn:
            let email = try Self.requiredEmail(request.email)
            guard request.continueUrl != nil else { throw IdentityToolkitError("MISSING_CONTINUE_URI", "a sign-in link needs a continueUrl") }
            try await call { () async throws(AuthError) in try await service.sendSignInLink(toEmail: email, actionCodeSettings: settings) }
            return Wire.SendOobCodeResponse(email: EmailAddress.normalized(email))
        case .verifyEmail:
            let (user, account) = try await tokenUser(request.idToken)
            try await call { () async throws(AuthError) in try await user.sendEmailVerification(actionCodeSettings: settings) }
            return Wire.SendOobCodeResponse(email: account.email)
        case .verifyAndChangeEmail:
            guard let newEmail = request.newEmail, !newEmail.isEmpty else {
                throw IdentityToolkitError("MISSING_NEW_EMAIL", "give the new email address")
            }
            let (user, account) = try await tokenUser(request.idToken)
            try await call { () async throws(AuthError) in
                try await user.sendEmailVerification(beforeUpdatingEmail: newEmail, actionCodeSettings: settings)
            }
            return Wire.SendOobCodeResponse(email: account.email)
        case .recoverEmail:
            throw IdentityToolkitError("INVALID_REQ_TYPE", "RECOVER_EMAIL links are sent when a user changes their address, not on request")
        }
    }

    /// `accounts:resetPassword` (iOS `resetPassword`): with `newPassword`, a password reset with
    /// its code; without, what the code does (JS `checkActionCode`, `verifyPasswordResetCode`).
    func resetPassword(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.ResetPasswordResponse {
        let request = try body.decode(Wire.ResetPasswordRequest.self)
        guard let code = request.oobCode, !code.isEmpty else { throw IdentityToolkitError("MISSING_OOB_CODE", "give the oobCode of the link") }
        let info = try await call { () async throws(AuthError) in try await service.checkActionCode(code) }
        if let newPassword = request.newPassword {
            guard info.kind == .passwordReset else {
                throw IdentityToolkitError("INVALID_OOB_CODE", "this code is not a password reset's: use it where its link leads")
            }
            try await call { () async throws(AuthError) in try await service.confirmPasswordReset(withCode: code, newPassword: newPassword) }
        }
        // Firebase leaves the address out for a sign-in link's code.
        return Wire.ResetPasswordResponse(
            requestType: info.kind.rawValue, email: info.kind == .emailSignIn ? nil : info.email, newEmail: info.newEmail)
    }

    /// `accounts:update` with an `oobCode` (JS `applyActionCode`, iOS `setAccountInfo`): an
    /// address verified, or changed to the one the code proves; the account as it is then.
    func applyActionCode(_ code: String) async throws(IdentityToolkitError) -> Wire.UpdateResponse {
        let info = try await call { () async throws(AuthError) in try await service.checkActionCode(code) }
        try await call { () async throws(AuthError) in try await service.applyActionCode(code) }
        let email = info.emailAfterApplying
        guard let details = try await call({ () async throws(AuthError) in try await service.administration.accountDetails(email: email) }) else {
            throw IdentityToolkitError("USER_NOT_FOUND", "the account was deleted as the code was applied")
        }
        return Wire.UpdateResponse(WireUser(details))
    }

    /// `accounts:signInWithEmailLink` (iOS `emailLinkSignin`): the account with the link's address,
    /// made at its first use; an account with second factors answers a pending credential, as a
    /// password sign-in does. With an `idToken` the address goes to that user instead (Firebase's
    /// `linkWithCredential` of an email-link credential), verified, and the user continues in a new
    /// session whose tokens the answer carries: a user who signed in with a second factor keeps it,
    /// as every link does here (Firebase's emulator asks for it again).
    func signInWithEmailLink(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.SignInWithEmailLinkResponse {
        let request = try body.decode(Wire.SignInWithEmailLinkRequest.self)
        let email = try Self.requiredEmail(request.email)
        guard let code = request.oobCode, !code.isEmpty else { throw IdentityToolkitError("MISSING_OOB_CODE", "give the oobCode of the link") }
        if let idToken = request.idToken, !idToken.isEmpty {
            let (user, _) = try await tokenUser(idToken)
            let linked = try await call { () async throws(AuthError) in
                try await user.link(with: EmailAuthProvider.credential(withEmail: email, link: code)).user
            }
            return Wire.SignInWithEmailLinkResponse(
                localId: linked.uid, email: linked.email ?? email, isNewUser: false, idToken: try await self.idToken(for: linked),
                refreshToken: try refreshToken(for: linked), expiresIn: String(tokens.lifetime))
        }
        let result: AuthDataResult
        do {
            result = try await service.signIn(withEmail: email, link: code)
        } catch {
            guard error.code == .secondFactorRequired, let resolver = error.resolver else { throw IdentityToolkitError(error) }
            let (credential, hints) = multiFactorChallenge(resolver)
            return Wire.SignInWithEmailLinkResponse(
                localId: resolver.uid, email: EmailAddress.normalized(email) ?? email, isNewUser: false, mfaPendingCredential: credential,
                mfaInfo: hints)
        }
        let user = result.user
        return Wire.SignInWithEmailLinkResponse(
            localId: user.uid, email: user.email ?? email, isNewUser: result.isNewUser, idToken: try await idToken(for: user),
            refreshToken: try refreshToken(for: user), expiresIn: String(tokens.lifetime))
    }

    private static func requiredEmail(_ email: String?) throws(IdentityToolkitError) -> String {
        guard let email, !email.isEmpty else { throw IdentityToolkitError("MISSING_EMAIL", "give the email address") }
        return email
    }
}
