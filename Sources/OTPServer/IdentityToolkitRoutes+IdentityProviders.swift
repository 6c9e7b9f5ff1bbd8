internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `accounts:signInWithIdp` (iOS `verifyAssertion`): signs in with a federated provider's ID
    /// token, which the service verifies against the provider's keys, creating the account on the
    /// identity's first sign-in; with the user's `idToken`, links the identity to that user
    /// instead, who then continues in a new session without a second challenge (`IDENTITY-TOOLKIT.md`
    /// E.9). A user with second factors signing in gets a pending credential and hints, as with a
    /// password.
    func signInWithIdp(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.SignInWithIdpResponse {
        let request = try body.decode(Wire.SignInWithIdpRequest.self)
        guard let requestURI = request.requestUri, !requestURI.isEmpty else {
            throw IdentityToolkitError("MISSING_REQUEST_URI", "give requestUri, the URI the provider answered to (the SDKs send http://localhost)")
        }
        let assertion = try IdentityProviderAssertion(postBody: request.postBody)
        if let idToken = request.idToken, !idToken.isEmpty {
            return try await linkIdentity(assertion, idToken: idToken, returnsCredential: request.returnIdpCredential ?? false)
        }
        var response = assertion.response
        let result: AuthDataResult
        do {
            result = try await service.signIn(with: assertion.credential)
        } catch {
            switch error.code {
            case .secondFactorRequired:
                guard let resolver = error.resolver else { throw IdentityToolkitError(error) }
                (response.mfaPendingCredential, response.mfaInfo) = multiFactorChallenge(resolver)
                response.localId = resolver.uid
                response.isNewUser = false
                return response
            case .accountExistsWithDifferentCredential:
                // The SDKs test for the key and raise account-exists-with-different-credential
                // with this answer, so the app can sign in the other way and link.
                response.needConfirmation = true
                response.email = error.email ?? response.email
                return response
            default:
                throw identityProviderError(error, assertion)
            }
        }
        let user = result.user
        response.localId = user.uid
        response.isNewUser = result.isNewUser
        response.idToken = try await idToken(for: user)
        response.refreshToken = try refreshToken(for: user)
        response.expiresIn = String(tokens.lifetime)
        return response
    }

    /// The link half of ``signInWithIdp(_:)``. An identity already linked to any account, the
    /// caller's included, is `FEDERATED_USER_ID_ALREADY_LINKED`: HTTP 400, or with
    /// `returnIdpCredential` HTTP 200 with `errorMessage` and the credential, from which the SDKs
    /// build the error's updated credential.
    private func linkIdentity(
        _ assertion: IdentityProviderAssertion, idToken: String, returnsCredential: Bool
    ) async throws(IdentityToolkitError) -> Wire.SignInWithIdpResponse {
        let (user, _) = try await tokenUser(idToken)
        var response = assertion.response
        let linked: User
        do {
            linked = try await user.link(with: assertion.credential).user
        } catch {
            if error.code == .credentialAlreadyInUse, returnsCredential {
                response.errorMessage = AuthErrorCode.credentialAlreadyInUse.serverCode
                return response
            }
            throw identityProviderError(error, assertion)
        }
        response.localId = linked.uid
        response.email = linked.email ?? response.email
        response.isNewUser = false
        response.idToken = try await self.idToken(for: linked)
        response.refreshToken = try refreshToken(for: linked)
        response.expiresIn = String(tokens.lifetime)
        return response
    }

    /// A refusal of an IdP credential as Identity Toolkit names it: a token the provider's
    /// verifier refused is `INVALID_IDP_RESPONSE`, a provider the server has no verifier for
    /// `OPERATION_NOT_ALLOWED`, as Firebase answers for a disabled provider.
    private func identityProviderError(_ error: AuthError, _ assertion: IdentityProviderAssertion) -> IdentityToolkitError {
        switch error.code {
        case .invalidCredential:
            IdentityToolkitError("INVALID_IDP_RESPONSE", error.message)
        case .invalidProviderID:
            IdentityToolkitError("OPERATION_NOT_ALLOWED", "this server accepts no \(assertion.providerID) credentials")
        case .credentialAlreadyInUse:
            IdentityToolkitError(
                error.code.serverCode, "this \(assertion.providerID) identity is linked to an account already: sign in with it instead")
        default:
            IdentityToolkitError(error)
        }
    }
}
