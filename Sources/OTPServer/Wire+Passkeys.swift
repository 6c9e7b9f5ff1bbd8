internal import ExtrasBase64
internal import OTPAuthentication
internal import OTPSealing

/// The bodies of Firebase's passkey endpoints (`passkeyEnrollment:start|finalize`,
/// `passkeySignIn:start|finalize`), as its JS SDK's `passkey` branch and iOS's `passkey-sv`
/// branch send and read them (`../shared/PASSKEYS.md` A.2–A.3).
///
/// Bytes go out in standard base64 with padding, which iOS's `Data(base64Encoded:)` needs and
/// JS's decoder also takes; they come in either way: JS sends base64url without padding, iOS
/// standard base64 with it.
extension Wire {
    struct PasskeyEnrollmentStartRequest: Decodable {
        var idToken: String?
        var tenantId: String?
    }

    struct PasskeyEnrollmentStartResponse: Encodable {
        var credentialCreationOptions: CreationOptions
    }

    /// W3C's `PublicKeyCredentialCreationOptionsJSON`.
    struct CreationOptions: Encodable {
        struct RelyingParty: Encodable {
            var id: String
            var name: String
        }
        struct User: Encodable {
            var id: String
            var name: String
            var displayName: String
        }
        struct Parameter: Encodable {
            var type = "public-key"
            var alg: Int64
        }
        struct Descriptor: Encodable {
            var type = "public-key"
            var id: String
        }
        struct Selection: Encodable {
            /// Sign-in options name no user, so only a discoverable credential can sign in; a
            /// second factor's need not be one.
            var residentKey: String
            var requireResidentKey: Bool
            var userVerification: String
        }

        var rp: RelyingParty
        var user: User
        var challenge: String
        var pubKeyCredParams: [Parameter]
        var timeout: Int64
        var excludeCredentials: [Descriptor]
        var authenticatorSelection: Selection
        var attestation = "none"

        init(_ options: PasskeyCreationOptions) {
            rp = RelyingParty(id: options.relyingPartyID, name: options.relyingPartyName)
            user = User(id: Wire.base64(options.userHandle), name: options.userName, displayName: options.userDisplayName)
            challenge = Wire.base64(options.challenge)
            pubKeyCredParams = options.algorithms.map { Parameter(alg: $0.rawValue) }
            timeout = options.timeout
            excludeCredentials = options.excludedCredentials.map { Descriptor(id: Wire.base64($0)) }
            authenticatorSelection = Selection(
                residentKey: options.requiresResidentKey ? "required" : "discouraged", requireResidentKey: options.requiresResidentKey,
                userVerification: options.userVerification.rawValue)
        }
    }

    struct PasskeyEnrollmentFinalizeRequest: Decodable {
        var idToken: String?
        var tenantId: String?
        var name: String?
        var displayName: String?
        var authenticatorRegistrationResponse: PublicKeyCredential<AttestationResponse>?
    }

    /// W3C's `RegistrationResponseJSON` and `AuthenticationResponseJSON`: a credential and the
    /// authenticator's response. iOS sends `id` alone, without `rawId` and `type`.
    struct PublicKeyCredential<Response: Decodable>: Decodable {
        var id: String?
        var rawId: String?
        var type: String?
        var response: Response?

        /// The raw id as bytes, from `rawId` or else `id`.
        var credentialID: [UInt8] {
            get throws(IdentityToolkitError) { try Wire.passkeyBytes(rawId ?? id, field: "id") }
        }
    }

    /// The attestation a registration's credential carries, its bytes decoded.
    static func registration(_ credential: PublicKeyCredential<AttestationResponse>?) throws(IdentityToolkitError) -> PasskeyRegistrationResponse {
        guard let credential else {
            throw IdentityToolkitError("INVALID_AUTHENTICATOR_RESPONSE", "give authenticatorRegistrationResponse, the authenticator's answer")
        }
        return PasskeyRegistrationResponse(
            credentialID: credential.rawId == nil && credential.id == nil ? nil : try credential.credentialID,
            clientDataJSON: try passkeyBytes(credential.response?.clientDataJSON, field: "clientDataJSON"),
            attestationObject: try passkeyBytes(credential.response?.attestationObject, field: "attestationObject"))
    }

    /// The assertion a sign-in's credential carries, its bytes decoded.
    static func assertion(_ credential: PublicKeyCredential<AssertionResponse>?) throws(IdentityToolkitError) -> PasskeyAssertionResponse {
        guard let credential else {
            throw IdentityToolkitError("INVALID_AUTHENTICATOR_RESPONSE", "give authenticatorAuthenticationResponse, the authenticator's answer")
        }
        let fields = credential.response
        return PasskeyAssertionResponse(
            credentialID: try credential.credentialID, clientDataJSON: try passkeyBytes(fields?.clientDataJSON, field: "clientDataJSON"),
            authenticatorData: try passkeyBytes(fields?.authenticatorData, field: "authenticatorData"),
            signature: try passkeyBytes(fields?.signature, field: "signature"),
            userHandle: try fields?.userHandle.map { (text) throws(IdentityToolkitError) in try passkeyBytes(text, field: "userHandle") })
    }

    struct AttestationResponse: Decodable {
        var clientDataJSON: String?
        var attestationObject: String?
    }

    struct AssertionResponse: Decodable {
        var clientDataJSON: String?
        var authenticatorData: String?
        var signature: String?
        var userHandle: String?
    }

    struct PasskeySignInStartRequest: Decodable {
        var tenantId: String?
    }

    struct PasskeySignInStartResponse: Encodable {
        var credentialRequestOptions: RequestOptions
    }

    /// W3C's `PublicKeyCredentialRequestOptionsJSON`.
    struct RequestOptions: Encodable {
        var challenge: String
        var rpId: String
        var userVerification: String
        var timeout: Int64
        /// Left out for a passkey sign-in, which names no credential.
        var allowCredentials: [CreationOptions.Descriptor]?

        init(_ options: PasskeyRequestOptions) {
            challenge = Wire.base64(options.challenge)
            rpId = options.relyingPartyID
            userVerification = options.userVerification.rawValue
            timeout = options.timeout
            allowCredentials =
                options.allowedCredentials.isEmpty ? nil : options.allowedCredentials.map { CreationOptions.Descriptor(id: Wire.base64($0)) }
        }
    }

    struct PasskeySignInFinalizeRequest: Decodable {
        var tenantId: String?
        var authenticatorAuthenticationResponse: PublicKeyCredential<AssertionResponse>?
        // JS sends the names of a sign-up it might have started; they mean nothing here.
        var name: String?
        var displayName: String?
    }

    /// Both finalize endpoints' answer: the user's tokens.
    struct PasskeyTokensResponse: Encodable {
        var localId: String
        var idToken: String
        var refreshToken: String
        var expiresIn: String
    }

    /// A user's passkey in `accounts:lookup` (Firebase's `PasskeyInfo`): the raw credential id in
    /// base64url without padding, as browsers write credential ids.
    struct PasskeyInfo: Encodable {
        var credentialId: String
        var name: String

        init(_ info: OTPAuthentication.PasskeyInfo) {
            credentialId = Base64URL.encode(info.credentialID)
            name = info.name
        }
    }

    /// The credential ids of `deletePasskey`, in either base64 dialect.
    static func passkeyIDs(_ texts: [String]?) throws(IdentityToolkitError) -> [[UInt8]] {
        try (texts ?? []).map { (text) throws(IdentityToolkitError) in
            guard let bytes = Base64URL.decodeEitherAlphabet(text), !bytes.isEmpty else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "deletePasskey holds an id that is not base64: send the passkey's credentialId")
            }
            return bytes
        }
    }

    /// Standard base64 with padding.
    static func base64(_ bytes: [UInt8]) -> String {
        Base64.encodeToString(bytes: bytes)
    }

    /// The bytes of a field in either base64 dialect, or `INVALID_AUTHENTICATOR_RESPONSE` naming it.
    static func passkeyBytes(_ text: String?, field: String) throws(IdentityToolkitError) -> [UInt8] {
        guard let text, !text.isEmpty, let bytes = Base64URL.decodeEitherAlphabet(text) else {
            throw IdentityToolkitError(
                "INVALID_AUTHENTICATOR_RESPONSE", "the credential's \(field) is missing or not base64: send the authenticator's response whole")
        }
        return bytes
    }
}
