/// Why an ``OpenIDAuthorizationClient`` could not start an authorization or exchange its code.
/// The text says what went wrong and never contains a code, a token, a secret or a verifier.
public enum OpenIDAuthorizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// OpenSSL's random generator failed: no state, nonce or verifier could be drawn.
    case randomUnavailable
    /// The token endpoint could not be reached, or answered something other than a token
    /// response: no statement about the person.
    case tokenEndpointUnavailable(String)
    /// The provider refused the code (`invalid_grant`: used, expired, or issued to another client
    /// or redirect URI) or the client (`invalid_client`); its OAuth error code is given.
    case codeRefused(String)

    public var description: String {
        switch self {
        case .randomUnavailable:
            "the random generator failed: no authorization could be started; try again"
        case .tokenEndpointUnavailable(let reason):
            "the provider's token endpoint did not answer with a token: \(reason)"
        case .codeRefused(let error):
            "the provider refused the authorization code (\(error)): it was used already, ran out, or was issued for another "
                + "client or redirect URI; start the sign-in again"
        }
    }
}
