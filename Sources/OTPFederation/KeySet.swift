import JWTKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One version of the provider's published keys, parsed by jwt-kit and ready to verify with.
///
/// Each allowed algorithm gets a `JWTKeyCollection` of its own holding the keys usable with it,
/// each key pinned to that algorithm. jwt-kit gives a key published without `alg` the algorithm of
/// the first token it checks and keeps it; pinned, a token is checked with exactly the algorithm
/// its header names and the settings allow, whatever came before.
struct KeySet: Sendable {
    /// What the provider says of one key id.
    struct PublishedKey: Sendable {
        /// The key type, `RSA`, `EC` or `OKP`.
        let type: String
        /// The algorithm the key is published for, if the provider restricts it.
        let algorithm: String?
    }

    /// How a key id of a token resolved against these keys.
    enum Lookup {
        /// The key, by the id jwt-kit knows it under, in the collection for the token's algorithm.
        case found(kid: String, collection: JWTKeyCollection)
        /// No key of this id is published.
        case unknown
        /// The key exists but cannot check this algorithm: another key type, or published for another.
        case unusable(PublishedKey)
        /// The token names no key id and more than one key could have signed it.
        case ambiguous(count: Int)
    }

    /// Why a key set document could not be used; the text completes "the key set …".
    struct Problem: Error {
        let reason: String
    }

    /// The whole document is refused beyond this size: Google's is about 2 KB.
    static let sizeLimit = 1024 * 1024

    /// Every published key id that parsed, whether or not an allowed algorithm can use it.
    let published: [String: PublishedKey]
    /// The monotonic version of the keys, so that a caller who waited can tell they changed.
    let generation: Int
    private let collections: [String: (collection: JWTKeyCollection, kids: [String])]

    /// The number of keys usable with any allowed algorithm.
    var usableCount: Int { Set(collections.values.flatMap(\.kids)).count }

    /// Reads a JSON Web Key Set document. Keys of types jwt-kit does not know, keys for encryption
    /// (`use: enc`) and keys without an id are skipped, as RFC 7517 section 5 asks of a reader.
    static func parse(_ document: [UInt8], allowedAlgorithms: Set<String>, generation: Int) async throws(Problem) -> KeySet {
        guard document.count <= sizeLimit else { throw Problem(reason: "is larger than \(sizeLimit / 1024) KiB") }
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode(Document.self, from: Data(document)).keys
        } catch {
            throw Problem(reason: "is not a JSON Web Key Set (a JSON object with a \"keys\" array)")
        }
        var published: [String: PublishedKey] = [:]
        var collections: [String: (collection: JWTKeyCollection, kids: [String])] = [:]
        for algorithm in allowedAlgorithms.sorted() {
            collections[algorithm] = (JWTKeyCollection(), [])
        }
        for entry in entries {
            guard let jwk = entry.key, entry.use != "enc", let kid = jwk.keyIdentifier?.string, !kid.isEmpty else { continue }
            published[kid] = PublishedKey(type: jwk.keyType.rawValue, algorithm: jwk.algorithm?.rawValue)
            for algorithm in allowedAlgorithms.sorted() {
                guard jwk.algorithm == nil || jwk.algorithm?.rawValue == algorithm,
                    Self.keyType(for: algorithm) == jwk.keyType.rawValue,
                    let pinned = JWK.Algorithm(rawValue: algorithm)
                else { continue }
                var copy = jwk
                copy.algorithm = pinned
                do {
                    try await collections[algorithm]!.collection.add(jwk: copy)
                    collections[algorithm]!.kids.append(kid)
                } catch {
                    // A key jwt-kit cannot build for this algorithm (missing modulus, another
                    // curve) cannot have signed a valid token with it; the others still serve.
                }
            }
        }
        let keySet = KeySet(published: published, generation: generation, collections: collections)
        guard keySet.usableCount > 0 else {
            let allowed = allowedAlgorithms.sorted().joined(separator: ", ")
            throw Problem(reason: "holds no key usable with \(allowed) (\(entries.count) entries, \(published.count) with a key id)")
        }
        return keySet
    }

    /// The key that can have signed a token with key id `kid` (nil: none in the header) and
    /// algorithm `algorithm`.
    func lookUp(kid: String?, algorithm: String) -> Lookup {
        let entry = collections[algorithm]
        guard let kid else {
            guard let entry, entry.kids.count == 1 else { return .ambiguous(count: entry?.kids.count ?? 0) }
            return .found(kid: entry.kids[0], collection: entry.collection)
        }
        guard let key = published[kid] else { return .unknown }
        guard let entry, entry.kids.contains(kid) else { return .unusable(key) }
        return .found(kid: kid, collection: entry.collection)
    }

    /// The JWK key type (`kty`) an algorithm signs with.
    static func keyType(for algorithm: String) -> String {
        switch algorithm.prefix(2) {
        case "RS", "PS": "RSA"
        case "ES": "EC"
        default: "OKP"
        }
    }

    private init(published: [String: PublishedKey], generation: Int, collections: [String: (collection: JWTKeyCollection, kids: [String])]) {
        self.published = published
        self.generation = generation
        self.collections = collections
    }

    private struct Document: Decodable {
        let keys: [Entry]
    }

    /// One element of `keys`: decoding never fails, so that one key of a kind jwt-kit does not
    /// know (`oct`, a new curve) does not hide the others.
    private struct Entry: Decodable {
        let key: JWK?
        let use: String?

        private enum CodingKeys: String, CodingKey {
            case use
        }

        init(from decoder: any Decoder) throws {
            key = try? JWK(from: decoder)
            use = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .use)
        }
    }
}
