extension TwilioSMSSender {
    /// Who authenticates the requests: HTTP basic authentication with the account's auth token,
    /// or with an API key (Twilio's recommendation for production, revocable on its own).
    public enum Credentials: Sendable, Hashable, CustomStringConvertible {
        /// The account SID (`AC…`) as user name and its auth token as password.
        case authToken(accountSID: String, authToken: String)
        /// An API key SID (`SK…`) and its secret, acting for the account SID (`AC…`).
        case apiKey(accountSID: String, keySID: String, secret: String)

        /// The account whose Messages resource the requests post to.
        public var accountSID: String {
            switch self {
            case .authToken(let accountSID, _), .apiKey(let accountSID, _, _): accountSID
            }
        }

        var username: String {
            switch self {
            case .authToken(let accountSID, _): accountSID
            case .apiKey(_, let keySID, _): keySID
            }
        }

        var password: String {
            switch self {
            case .authToken(_, let authToken): authToken
            case .apiKey(_, _, let secret): secret
            }
        }

        /// The SIDs only: a credentials value printed by mistake shows no token or secret.
        public var description: String {
            switch self {
            case .authToken(let accountSID, _): "auth token for \(accountSID)"
            case .apiKey(let accountSID, let keySID, _): "API key \(keySID) for \(accountSID)"
            }
        }
    }

    /// Whom the messages come from.
    public enum Origin: Sendable, Hashable {
        /// A Twilio number in E.164 (`+15555550100`) or an alphanumeric sender id: the `From` field.
        case phoneNumber(String)
        /// A messaging service (`MG…`) that picks the number: the `MessagingServiceSid` field.
        case messagingService(String)

        var fieldName: String {
            switch self {
            case .phoneNumber: "From"
            case .messagingService: "MessagingServiceSid"
            }
        }

        var value: String {
            switch self {
            case .phoneNumber(let value), .messagingService(let value): value
            }
        }
    }
}
