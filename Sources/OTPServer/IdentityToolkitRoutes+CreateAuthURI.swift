internal import Hummingbird
internal import OTPAuthentication

// `accounts:createAuthUri` (iOS `createAuthUri`): what JS's `fetchSignInMethodsForEmail` and the
// SDKs' address-first sign-in screens ask before choosing a sign-in method.
extension IdentityToolkitRoutes {
    func addCreateAuthURIRoute<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        client(router, paths: [Self.identityToolkit + "/accounts:createAuthUri", Self.relyingParty + "/createAuthUri"]) {
            body, _ throws(IdentityToolkitError) in try await routes.createAuthURI(body)
        }
    }

    /// The sign-in methods of the account with the address `identifier`, or, as Firebase answers
    /// under email enumeration protection (``PasswordSettings/emailEnumerationProtection``, on by
    /// default), none: whether an address has an account is not for anyone who asks. A provider's
    /// authorization URI (`providerId` alone) is not made here: this server takes the provider's
    /// ID token itself (`accounts:signInWithIdp`).
    func createAuthURI(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.CreateAuthURIResponse {
        let request = try body.decode(Wire.CreateAuthURIRequest.self)
        guard let identifier = request.identifier, !identifier.isEmpty else {
            if request.providerId != nil {
                throw IdentityToolkitError(
                    "OPERATION_NOT_ALLOWED",
                    "this server makes no authorization URIs: sign in with the provider's ID token through accounts:signInWithIdp")
            }
            throw IdentityToolkitError("MISSING_IDENTIFIER", "give identifier, the email address whose sign-in methods to list")
        }
        guard let continueURI = request.continueUri, !continueURI.isEmpty else {
            throw IdentityToolkitError("MISSING_CONTINUE_URI", "give continueUri, the page to come back to (the SDKs send the app's)")
        }
        guard EmailAddress.normalized(identifier) != nil else {
            throw IdentityToolkitError("INVALID_IDENTIFIER", "the identifier is not an email address: give one such as name@example.com")
        }
        let sessionID: String
        if let given = request.sessionId, !given.isEmpty {
            sessionID = given
        } else {
            do {
                sessionID = try RandomToken.hex(byteCount: 16)
            } catch {
                throw IdentityToolkitError(status: .internalServerError, "INTERNAL_ERROR", "the server could not draw a session id: try again")
            }
        }
        var response = Wire.CreateAuthURIResponse(sessionId: sessionID)
        guard !service.configuration.passwords.emailEnumerationProtection else { return response }
        let details = try await call { () async throws(AuthError) in try await service.administration.accountDetails(email: identifier) }
        let providers = (details?.providerData ?? []).map(\.providerID).filter { $0 != PhoneAuthProvider.id }
        response.registered = details != nil
        response.allProviders = providers
        response.signinMethods = providers
        return response
    }
}

extension Wire {
    /// What the SDKs send to list an address's sign-in methods (`continueUri` always; an app's
    /// redirect fields are read only to refuse `providerId` alone).
    struct CreateAuthURIRequest: Decodable {
        var identifier: String?
        var continueUri: String?
        var providerId: String?
        var sessionId: String?
        var tenantId: String?
    }

    /// `registered`, `allProviders` and `signinMethods` are left out under email enumeration
    /// protection, as Firebase leaves them out.
    struct CreateAuthURIResponse: Encodable {
        var kind = "identitytoolkit#CreateAuthUriResponse"
        var sessionId: String
        var registered: Bool?
        var allProviders: [String]?
        var signinMethods: [String]?
    }
}
