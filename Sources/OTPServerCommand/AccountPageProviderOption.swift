internal import ArgumentParser
internal import Foundation
internal import OTPAuthentication
internal import OTPFederation

/// One `--account-page-provider` value: an identity provider the account page's sign-in offers,
/// by the authorization code flow, whose tokens the `--identity-provider` of the same id verifies
/// (its client id is the one the page signs in as).
///
/// `google.com=CLIENT_SECRET_FILE` takes Google's endpoints; any provider is
/// `ID=AUTHORIZATION_URL,TOKEN_URL[,CLIENT_SECRET_FILE]`, without a file for a public client.
/// The secret is read from a file, so that it never shows in the process list.
enum AccountPageProviderOption {
    static let valueHelp = "google.com=CLIENT_SECRET_FILE, or ID=AUTHORIZATION_URL,TOKEN_URL[,CLIENT_SECRET_FILE]"

    /// The client `argument` describes, for the provider among `verified` it names.
    static func client(parsing argument: String, verified: [IdentityProviderOption]) throws(ValidationError) -> OpenIDAuthorizationClient {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw ValidationError("--account-page-provider takes \(valueHelp)")
        }
        let providerID = argument[..<equals].lowercased()
        let fields = argument[argument.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let clientID = verified.first(where: { $0.settings.providerID == providerID })?.settings.audiences.sorted().first else {
            throw ValidationError(
                "--account-page-provider \(providerID) needs --identity-provider \(providerID)=… too: its client id and keys check the tokens the page receives"
            )
        }
        do {
            switch fields.count {
            case 1 where providerID == GoogleAuthProvider.id:
                return OpenIDAuthorizationClient(
                    settings: try .google(clientID: clientID, clientSecret: try secret(fields[0], providerID: providerID)))
            case 2, 3:
                return OpenIDAuthorizationClient(
                    settings: try OpenIDAuthorizationSettings(
                        providerID: providerID, clientID: clientID,
                        clientSecret: try fields.count == 3 ? secret(fields[2], providerID: providerID) : nil,
                        authorizationEndpoint: fields[0], tokenEndpoint: fields[1]))
            default:
                throw ValidationError(
                    "--account-page-provider \(providerID): give \(providerID)=AUTHORIZATION_URL,TOKEN_URL[,CLIENT_SECRET_FILE] (only google.com has default endpoints)"
                )
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("--account-page-provider \(providerID): \(error)")
        }
    }

    /// The client secret in the file at `path`, without the line break and blanks around it.
    private static func secret(_ path: String, providerID: String) throws(ValidationError) -> String {
        let secret: String
        do {
            secret = String(decoding: try OperatorFile.contents(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw ValidationError("--account-page-provider \(providerID): cannot read the client secret file \(path): \(error.reason)")
        }
        guard !secret.isEmpty else {
            throw ValidationError(
                "--account-page-provider \(providerID): the client secret file \(path) is empty: write the provider's client secret into it")
        }
        return secret
    }
}
