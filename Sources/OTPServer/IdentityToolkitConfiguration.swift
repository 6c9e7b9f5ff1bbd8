/// What the Identity Toolkit routes serve and whom they let in.
public struct IdentityToolkitConfiguration: Sendable {
    /// The Firebase project id: the audience of ID tokens and the `{project}` of admin paths.
    public var projectID: String
    /// The API keys client calls must carry (`key=` or `X-Goog-Api-Key`); ignored under ``isEmulator``.
    public var apiKeys: Set<String>
    /// Firebase's Auth emulator's test conveniences, never otherwise: any API key is accepted and
    /// admin calls accept `Authorization: Bearer owner`, as firebase-admin sends it when
    /// `FIREBASE_AUTH_EMULATOR_HOST` is set.
    public var isEmulator: Bool
    /// The bearer token admin calls (`/v1/projects/{project}/accounts…`) may carry as
    /// `Authorization: Bearer TOKEN`, compared in constant time; `nil` for none, which leaves the
    /// admin calls to the emulator's `Bearer owner` under ``isEmulator`` and refuses them otherwise.
    public var adminToken: String?
    /// The largest request body read; a larger one is refused with `INVALID_ARGUMENT` unread.
    public var maximumBodyBytes: Int
    /// The attempts let through per client address and per account (none by default).
    public var limits: RequestLimits
    /// The addresses of the proxies in front whose `X-Forwarded-For` is believed (none by
    /// default): a request from one of them counts under the last entry of the header that is not
    /// itself one of them, since a proxy appends the address it received the request from and a
    /// client writes the rest as it likes. A request from any other peer counts under the peer.
    /// Addresses are IPv4 or IPv6, compared as addresses however they are written (`::ffff:192.0.2.1` is `192.0.2.1`).
    public var trustedProxies: Set<String>
    /// The domains `GET /v1/projects` lists as allowed to host the project's sign-in pages
    /// (default `localhost`, as the emulator answers).
    public var authorizedDomains: [String]

    /// A configuration.
    public init(
        projectID: String, apiKeys: Set<String> = [], isEmulator: Bool = false, adminToken: String? = nil, maximumBodyBytes: Int = 64 * 1024,
        limits: RequestLimits = .none,
        trustedProxies: Set<String> = [], authorizedDomains: [String] = ["localhost"]
    ) {
        self.projectID = projectID
        self.authorizedDomains = authorizedDomains
        self.apiKeys = apiKeys
        self.isEmulator = isEmulator
        self.adminToken = adminToken
        self.maximumBodyBytes = maximumBodyBytes
        self.limits = limits
        self.trustedProxies = Set(trustedProxies.compactMap(ClientAddress.canonical(parsing:)))
    }
}
