/// Where an ``OpenIDTokenVerifier`` reads the provider's public keys, a JSON Web Key Set (RFC 7517).
public enum JWKSSource: Sendable, Hashable {
    /// The provider's `jwks_uri`, fetched over HTTPS and kept as long as its `Cache-Control: max-age`
    /// says. Plain HTTP is accepted only on loopback (`127.0.0.1`, `::1`, `localhost`), where no one
    /// on the path can substitute keys.
    case url(String)
    /// A file holding the key set, for a provider whose keys are deployed with the server (or a
    /// machine that must not reach the network). Read at the first verification and again whenever
    /// the file changes.
    case file(String)
}
