internal import Foundation
internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `securetoken.googleapis.com/v1/token`: a new ID token for a refresh token, as JS sends it
    /// (form-encoded `grant_type`, `refresh_token`) and as iOS does (JSON `grantType`,
    /// `refreshToken`). The answer is snake_case, `expires_in` a string, `access_token` the ID token.
    func refresh(_ body: JSONBody, isForm: Bool) async throws(IdentityToolkitError) -> Wire.TokenResponse {
        let request = isForm ? Self.formFields(body.bytes) : try body.decode(Wire.TokenRequest.self)
        guard let grantType = request.grant_type ?? request.grantType, !grantType.isEmpty else {
            throw IdentityToolkitError("MISSING_GRANT_TYPE", "give grant_type=refresh_token")
        }
        guard grantType == "refresh_token" else { throw IdentityToolkitError("INVALID_GRANT_TYPE", "grant_type must be refresh_token") }
        guard let token = request.refresh_token ?? request.refreshToken, !token.isEmpty else {
            throw IdentityToolkitError("MISSING_REFRESH_TOKEN", "give the refresh token")
        }
        guard let (sessionID, userID, _) = refreshTokens.open(token) else {
            throw IdentityToolkitError("INVALID_REFRESH_TOKEN", "the refresh token is not one this server issued: sign in again")
        }
        let (user, _) = try await sessionUser(sessionID: sessionID, userID: userID)
        let idToken = try await self.idToken(for: user)
        return Wire.TokenResponse(
            id_token: idToken, access_token: idToken, expires_in: String(tokens.lifetime), refresh_token: token, user_id: user.uid,
            project_id: configuration.projectID)
    }

    /// The signed-in user of session `sessionID` of account `userID`, which a refresh token or an
    /// ID token named: `USER_NOT_FOUND` when the account is gone, `USER_DISABLED`, and
    /// `TOKEN_EXPIRED` when the session was signed out, pushed out by newer ones or expired.
    func sessionUser(sessionID: String, userID: String) async throws(IdentityToolkitError) -> (User, AccountRecord) {
        guard let details = try await call({ () async throws(AuthError) in try await service.administration.accountDetails(id: userID) }) else {
            throw IdentityToolkitError("USER_NOT_FOUND", "the token's user no longer exists")
        }
        guard !details.account.isDisabled else { throw IdentityToolkitError("USER_DISABLED", "this account is disabled") }
        let account = details.account
        // The provider is the session's own: the service takes it from the session record.
        let identity = FirstFactorIdentity(
            userID: account.id, email: account.email, isEmailVerified: account.isEmailVerified, provider: .password,
            providerData: details.providerData, customAttributes: account.customAttributes)
        do {
            return (try await service.user(forSessionID: sessionID, identity: identity), account)
        } catch {
            if error.code == .internalError { throw IdentityToolkitError(error) }
            throw IdentityToolkitError("TOKEN_EXPIRED", "the session was revoked or has expired: sign in again")
        }
    }

    /// A refresh token for the session `user` signed in with.
    func refreshToken(for user: User) throws(IdentityToolkitError) -> String {
        do {
            return try refreshTokens.token(recordID: user.sessionID, userID: user.uid)
        } catch {
            throw IdentityToolkitError(status: .internalServerError, "INTERNAL_ERROR", "the server could not make a refresh token")
        }
    }

    /// The fields of a form-encoded body; malformed pairs are left out, so a missing field is the
    /// endpoint's own `MISSING_…` error.
    static func formFields(_ bytes: [UInt8]) -> Wire.TokenRequest {
        var components = URLComponents()
        components.percentEncodedQuery = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "+", with: "%20")
        var request = Wire.TokenRequest()
        for item in components.queryItems ?? [] {
            switch item.name {
            case "grant_type": request.grant_type = item.value
            case "refresh_token": request.refresh_token = item.value
            default: break
            }
        }
        return request
    }
}
