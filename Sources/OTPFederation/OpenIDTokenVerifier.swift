import JWTKit
public import Logging
public import OTPAuthentication
import OTPCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Verifies the ID tokens of one OpenID Connect provider (Google, or any other) against the keys
/// it publishes, as OpenID Connect Core 1.0 section 3.1.3.7 asks.
///
/// A token is accepted when it is a JWS signed with an allowed algorithm by a key in the
/// provider's key set, issued by an accepted issuer for one of the accepted audiences, current
/// (`exp`, `nbf`, `iat` within the clock skew, and `iat` within the maximum age when set), names a
/// subject, and, when the sign-in sent a nonce, carries it. jwt-kit parses the keys and checks the
/// signature; this type decides which key and which algorithm, and checks the claims.
///
/// The keys are kept as long as the provider's `Cache-Control: max-age` says (an hour when it
/// says nothing; at least a minute, at most a day), and every verification that needs a fetch
/// waits on the same one. A token naming a key id the keys lack makes the verifier fetch them
/// again once, for a provider that rotated since, but at most once in 30 seconds, so that tokens
/// with made-up key ids cannot make the server hammer the provider. After a failed fetch the
/// failure is repeated for 5 seconds without another.
///
/// Refusals are `IdentityTokenError.rejected` with a message saying what was wrong and how
/// to fix it; a key set that cannot be fetched or read is
/// `IdentityTokenError.keysUnavailable`. No message contains the token, a key or a signature.
public final class OpenIDTokenVerifier: IdentityTokenVerifier {
    /// What the verifier accepts.
    public let settings: OpenIDProviderSettings

    /// The provider id of ``settings``.
    public var providerID: String { settings.providerID }

    /// Longer than any ID token: Google's are about 1 KB, Microsoft's with many groups about 8.
    /// A longer string is refused before any parsing.
    public static let maximumTokenLength = 16 * 1024

    private let cache: KeySetCache
    private let clock: @Sendable () -> Double

    /// A verifier for one provider.
    ///
    /// A ``JWKSSource/url(_:)`` key set is fetched through libcurl, one exchange a fetch, redirects
    /// refused and no proxy from the environment, so there is no client to keep or shut down.
    ///
    /// - Parameters:
    ///   - settings: What to accept.
    ///   - logger: Where key fetches (debug) and their failures (warning) are logged.
    ///   - clock: The current Unix time in seconds, for the token lifetimes and the key cache; the
    ///     system clock unless a test sets the time.
    public init(
        settings: OpenIDProviderSettings,
        logger: Logger = Logger(label: "OTPFederation"),
        clock: @escaping @Sendable () -> Double = { OpenIDTokenVerifier.systemTime() }
    ) {
        self.settings = settings
        self.clock = clock
        let loader = KeySetLoader(source: settings.keySource, timeout: settings.keyFetchTimeout)
        self.cache = KeySetCache(loader: loader, allowedAlgorithms: settings.allowedAlgorithms, clock: clock, logger: logger)
    }

    /// The system clock's Unix time in seconds: the default clock.
    public static func systemTime() -> Double {
        Date().timeIntervalSince1970
    }

    /// Checks `idToken` and returns the identity it asserts.
    ///
    /// - Parameters:
    ///   - idToken: The ID token (a compact JWS) the app received from the provider.
    ///   - nonce: The raw nonce the app sent to the provider, if it sent one: the token's `nonce`
    ///     claim must then equal it or its SHA-256 in lowercase hexadecimal (Apple's and
    ///     Firebase's convention). Nil or empty: the `nonce` claim is not checked.
    /// - Throws: `IdentityTokenError.rejected` for an invalid token,
    ///   `IdentityTokenError.keysUnavailable` when the provider's keys could not be read.
    public func verify(idToken: String, nonce: String?) async throws(IdentityTokenError) -> VerifiedIdentity {
        let token = Array(idToken.utf8)
        try Self.checkShape(token)

        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(token, as: IDTokenClaims.self).header
        } catch {
            throw .rejected(Self.malformed(error))
        }
        let algorithm = try checkAlgorithm(header)
        // RFC 7515 section 4.1.11: an extension the verifier does not understand must not be ignored.
        if header.fields["crit"] != nil {
            throw .rejected("its header marks extensions as critical (crit), which this verifier does not implement: ID tokens carry none")
        }
        let kid = header.kid

        var keys = try await cache.keys()
        var lookup = keys.lookUp(kid: kid, algorithm: algorithm)
        var refreshed = false
        if case .unknown = lookup, let newer = try await cache.keysAfterUnknownKey(seen: keys) {
            keys = newer
            lookup = keys.lookUp(kid: kid, algorithm: algorithm)
            refreshed = true
        }

        let claims: IDTokenClaims
        switch lookup {
        case .unknown:
            var looked = "and the key set was fetched again for an unknown key less than \(Int(KeySetCache.unknownKeyRefreshInterval)) s ago"
            if case .file = settings.keySource {
                looked = "not in the key file as it is now"
            } else if refreshed {
                looked = "not even in the key set fetched again just now"
            }
            throw .rejected(
                "it is signed by a key the provider does not publish (key id \(Self.quoted(kid ?? ""))), \(looked): "
                    + "the token is forged, or comes from another provider or environment")
        case .ambiguous(let count):
            throw .rejected(
                "its header names no key id (kid) and the provider publishes \(count) keys for \(algorithm): "
                    + "the provider's tokens name their key; this one does not come from it")
        case .unusable(let key):
            let published = key.algorithm.map { "published for \($0)" } ?? "an \(key.type) key"
            throw .rejected(
                "its header says \(algorithm), but the provider's key \(Self.quoted(kid ?? "")) is \(published): "
                    + "the token was altered, or the provider's algorithm is missing from allowedAlgorithms")
        case .found(let kid, let collection):
            do {
                claims = try await collection.verify(token, as: IDTokenClaims.self)
            } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
                throw .rejected(
                    "its signature does not match the provider's key \(Self.quoted(kid)): "
                        + "the token was altered, or signed by someone else under that key id")
            } catch {
                throw .rejected(
                    "its signature could not be checked with the provider's key \(Self.quoted(kid)) (\(Self.describe(error))): "
                        + "the token was altered or the key set is damaged")
            }
        }
        return try check(claims, nonce: nonce, now: clock())
    }

    // MARK: - Shape and header

    /// Refuses what cannot be a compact JWS before any decoding: empty, too long, not three parts.
    private static func checkShape(_ token: [UInt8]) throws(IdentityTokenError) {
        guard !token.isEmpty else { throw .rejected("the token is empty: send the ID token the provider returned") }
        guard token.count <= maximumTokenLength else {
            throw .rejected("the token is \(token.count) bytes, more than any ID token (\(maximumTokenLength)): send the ID token itself")
        }
        let parts = token.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).count
        guard parts == 3 else {
            throw .rejected(
                "it has \(parts) dot-separated part\(parts == 1 ? "" : "s"), not the three of a signed JWT (header.payload.signature): "
                    + "send the provider's ID token, not an access token, an authorization code or an encrypted JWT")
        }
    }

    /// Why jwt-kit could not parse the token, without its reason text, which may quote the
    /// decoder's view of the payload.
    private static func malformed(_ error: any Error) -> String {
        if let error = error as? JWTError, error.errorType == .malformedToken, error.reason?.hasPrefix("Header and payload") == true {
            return "it is malformed: its header or payload is not base64url (RFC 7515 section 2): the token was cut or altered on its way"
        }
        return "it is malformed: its header or payload is not a JSON object, or its signature is not base64url: "
            + "the token was cut or altered on its way"
    }

    /// The header's algorithm, when the settings allow it. `none` and HMAC get messages of their
    /// own: they are the two classic forgeries, not a configuration slip.
    private func checkAlgorithm(_ header: JWTHeader) throws(IdentityTokenError) -> String {
        guard let algorithm = header.alg, !algorithm.isEmpty else {
            throw .rejected("its header names no signature algorithm (alg): it is not a signed ID token")
        }
        if algorithm.lowercased() == "none" {
            throw .rejected("it is unsigned (alg none): an ID token must carry the provider's signature; this one is forged")
        }
        if algorithm.uppercased().hasPrefix("HS") {
            throw .rejected(
                "it is signed with HMAC (alg \(Self.quoted(algorithm, limit: 16))), a shared-secret algorithm no provider signs ID tokens "
                    + "with: it is forged, typically with the provider's public key used as the secret (key confusion)")
        }
        guard settings.allowedAlgorithms.contains(algorithm) else {
            let allowed = settings.allowedAlgorithms.sorted().joined(separator: ", ")
            throw .rejected(
                "it is signed with \(Self.quoted(algorithm, limit: 16)), which is not allowed for \(providerID) (allowed: \(allowed)): "
                    + "if the provider does sign with it, add it to allowedAlgorithms")
        }
        return algorithm
    }

    /// Text from the token as a message shows it: quoted, short, control characters escaped.
    static func quoted(_ text: String, limit: Int = 64) -> String {
        "\"\(quotedInMessage(text, maximumScalars: limit))\""
    }

    /// A jwt-kit error by its kind only: its description may carry decoded claims.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? JWTError { return error.errorType.description }
        return String(describing: type(of: error))
    }
}
