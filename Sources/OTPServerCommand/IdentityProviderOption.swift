internal import ArgumentParser
internal import OTPAuthentication
internal import OTPFederation

/// One `--identity-provider` value: a federated provider whose ID tokens `accounts:signInWithIdp`
/// accepts, checked against the provider's published keys.
///
/// `google.com=CLIENT_ID` takes Google's issuers and keys; any provider (Google too, pointed at
/// another issuer) is `ID=CLIENT_ID,ISSUER_URL,JWKS_URL_OR_FILE`. A client id is the OAuth client
/// the tokens are issued to (their `aud`).
struct IdentityProviderOption {
    let settings: OpenIDProviderSettings

    static let valueHelp = "google.com=CLIENT_ID, or ID=CLIENT_ID,ISSUER_URL,JWKS_URL_OR_FILE"

    init(parsing argument: String) throws(ValidationError) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw ValidationError("--identity-provider takes \(Self.valueHelp)")
        }
        // Provider ids are lower case on the wire (the emulator lower-cases them too).
        let providerID = argument[..<equals].lowercased()
        let fields = argument[argument.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        do {
            switch fields.count {
            case 1 where providerID == GoogleAuthProvider.id:
                settings = try .google(clientIDs: [fields[0]])
            case 3:
                let keySet = fields[2]
                settings = try OpenIDProviderSettings(
                    providerID: providerID, issuers: [fields[1]], audiences: [fields[0]],
                    keySource: keySet.contains("://") ? .url(keySet) : .file(keySet))
            default:
                throw ValidationError(
                    "--identity-provider \(providerID): give \(providerID)=CLIENT_ID,ISSUER_URL,JWKS_URL_OR_FILE (only google.com has default issuers and keys)"
                )
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("--identity-provider \(providerID): \(error)")
        }
    }
}
