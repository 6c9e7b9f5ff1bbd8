internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `accounts:update` with the user's `idToken` (iOS `setAccountInfo`, `IDENTITY-TOOLKIT.md`
    /// C.7): the user's own address, password, name and photo in one store operation, then each
    /// provider of `deleteProvider` unlinked (B.3; a provider the user does not have is ignored,
    /// as the emulator does, since both SDKs check first). Everything is checked before anything is
    /// written. A new address or password revokes every earlier token, and the answer carries the
    /// new session's tokens. What only an administrator may change is refused, not ignored. A new
    /// password counts against the password-change limits of `source` and the user.
    func update(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.UpdateResponse {
        let request = try body.decode(Wire.UpdateRequest.self)
        guard let idToken = request.idToken, !idToken.isEmpty else {
            if let code = request.oobCode, !code.isEmpty { return try await applyActionCode(code) }
            throw IdentityToolkitError("INVALID_REQ_TYPE", "Unsupported request parameters: give the user's idToken")
        }
        if request.customAttributes != nil {
            throw IdentityToolkitError("INSUFFICIENT_PERMISSION", "custom claims are set by an administrator only")
        }
        if request.disableUser != nil {
            throw IdentityToolkitError("OPERATION_NOT_ALLOWED", "a user cannot disable or enable an account: an administrator can")
        }
        for (field, isPresent) in [
            ("localId", request.localId != nil), ("emailVerified", request.emailVerified != nil), ("phoneNumber", request.phoneNumber != nil),
        ] where isPresent {
            throw IdentityToolkitError("INSUFFICIENT_PERMISSION", "\(field) is changed by an administrator only")
        }
        if request.validSince != nil {
            throw IdentityToolkitError.notServed("validSince from a user is not served by this server: revoke sessions as an administrator")
        }
        let (displayName, photoURL) = try Self.profileChanges(
            displayName: request.displayName, photoURL: request.photoUrl, deleteAttribute: request.deleteAttribute,
            advice: ": unlink the provider with deleteProvider instead")
        if let email = request.email, email.isEmpty { throw IdentityToolkitError("INVALID_EMAIL", "the email address is empty") }
        if let password = request.password, password.isEmpty { throw IdentityToolkitError("WEAK_PASSWORD", "the password is empty") }
        var providers: [String] = []
        for provider in request.deleteProvider ?? [] where !providers.contains(provider) {
            guard !provider.isEmpty else { throw IdentityToolkitError("INVALID_ARGUMENT", "deleteProvider holds an empty provider id") }
            providers.append(provider)
        }
        if providers.contains(EmailAuthProvider.id), request.email != nil || request.password != nil {
            throw IdentityToolkitError("INVALID_ARGUMENT", "the request both changes the password or address and unlinks password: send one")
        }
        let passkeys = try Wire.passkeyIDs(request.deletePasskey)

        let (user, _) = try await tokenUser(idToken)
        if request.password != nil { try await admitPasswordChange(of: user, source: source) }
        var current = user
        if request.email != nil || request.password != nil || displayName != nil || photoURL != nil {
            current = try await call { () async throws(AuthError) in
                try await user.update(email: request.email, password: request.password, displayName: displayName, photoURL: photoURL)
            }
        }
        for provider in providers {
            do {
                current = try await current.unlink(fromProvider: provider)
            } catch  where error.code == .noSuchProvider {
                continue
            } catch {
                throw IdentityToolkitError(error)
            }
        }
        for credentialID in passkeys {
            try await call { () async throws(AuthError) in try await current.unenrollPasskey(withCredentialID: credentialID) }
        }
        let userID = current.uid
        guard let details = try await call({ () async throws(AuthError) in try await service.administration.accountDetails(id: userID) }) else {
            throw IdentityToolkitError("USER_NOT_FOUND", "the account was deleted as it was updated")
        }
        var response = Wire.UpdateResponse(WireUser(details))
        // A new session means the earlier ones were revoked: the client needs its tokens. iOS
        // signs in again with the tokens of an answer to deletePasskey, so it gets them too.
        if current.sessionID != user.sessionID || !passkeys.isEmpty {
            response.idToken = try await self.idToken(for: current)
            response.refreshToken = try refreshToken(for: current)
            response.expiresIn = String(tokens.lifetime)
        }
        return response
    }

    /// `accounts:delete` with the user's `idToken` (JS `deleteUser`, iOS `deleteAccount`): the
    /// user's own account, after a recent sign-in (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN` otherwise).
    func deleteOwnAccount(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.DeleteResponse {
        let request = try body.decode(Wire.DeleteRequest.self)
        if request.localId != nil, request.idToken == nil {
            throw IdentityToolkitError("INSUFFICIENT_PERMISSION", "deleting an account by localId is for an administrator: give the user's idToken")
        }
        let (user, _) = try await tokenUser(request.idToken)
        try await call { () async throws(AuthError) in try await user.delete() }
        return Wire.DeleteResponse()
    }

    /// The name and photo an update sets (`displayName`, `photoUrl`) or removes (`deleteAttribute`
    /// `DISPLAY_NAME`, `PHOTO_URL`; C.7), for the user's update and the administrator's alike.
    /// `advice` ends the refusal of the attributes this version does not delete.
    static func profileChanges(
        displayName: String?, photoURL: String?, deleteAttribute: [String]?, advice: String = ""
    ) throws(IdentityToolkitError) -> (displayName: AttributeChange<String>?, photoURL: AttributeChange<String>?) {
        var changes = (displayName: displayName.map { AttributeChange.set($0) }, photoURL: photoURL.map { AttributeChange.set($0) })
        for attribute in deleteAttribute ?? [] {
            switch attribute {
            case "DISPLAY_NAME": changes.displayName = .remove
            case "PHOTO_URL": changes.photoURL = .remove
            case "EMAIL", "PASSWORD", "PROVIDER", "RAW_USER_INFO":
                throw IdentityToolkitError.notServed("deleting \(attribute) is not served by this server\(advice)")
            default:
                throw IdentityToolkitError("INVALID_ARGUMENT", "deleteAttribute names an unknown attribute: give DISPLAY_NAME or PHOTO_URL")
            }
        }
        return changes
    }
}
