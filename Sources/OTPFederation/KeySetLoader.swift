import Glibc
import OTPAuthentication
import OTPCore
import OTPOutbound

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the key set document from its source: one HTTP GET bounded by the timeout, or one read
/// of the file; and says how long what it read stays current.
struct KeySetLoader: Sendable {
    /// How long a loaded document stays current.
    enum Freshness: Sendable, Equatable {
        /// Until this Unix time: the URL's `Cache-Control: max-age`.
        case until(Double)
        /// As long as the file is the one that was read.
        case whileFileUnchanged(FileFingerprint)
    }

    /// What identifies one version of a file without reading it: a rewrite (even to the same
    /// size within the same second) or a rename over it changes the inode or the modification time.
    struct FileFingerprint: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modifiedSeconds: Int
        let modifiedNanoseconds: Int
    }

    /// A loaded document and how long it is current.
    struct Loaded: Sendable {
        let document: [UInt8]
        let freshness: Freshness
    }

    /// Without `Cache-Control: max-age`, keys are kept an hour: Google's own max-age is about six.
    static let defaultLifetime: Double = 3600
    /// A provider's `max-age=0` or `no-cache` still keeps keys this long, so that every sign-in
    /// does not become a fetch.
    static let minimumLifetime: Double = 60
    /// A provider's long `max-age` is cut to a day, so that a revoked key does not linger.
    static let maximumLifetime: Double = 86_400

    let source: JWKSSource
    let timeout: Duration

    /// The source as messages name it: a URL without its query, or the file's path.
    var shownSource: String {
        switch source {
        case .url(let url): OpenIDProviderSettings.displayed(url)
        case .file(let path): "the key file \(path)"
        }
    }

    /// Loads the document; `now` is the Unix time its lifetime counts from.
    func load(now: Double) async -> Result<Loaded, IdentityTokenError> {
        switch source {
        case .url(let url):
            return await fetch(url, now: now)
        case .file(let path):
            return Self.read(path)
        }
    }

    /// Whether a document loaded with `freshness` is still current at `now`.
    func isCurrent(_ freshness: Freshness, now: Double) -> Bool {
        switch freshness {
        case .until(let time): now < time
        case .whileFileUnchanged(let fingerprint):
            if case .file(let path) = source, case .success(let current) = Self.fingerprint(path) { current == fingerprint } else { false }
        }
    }

    // MARK: - HTTP

    /// One GET, bounded as a whole (head and body) by the timeout, so that a server trickling its
    /// answer cannot hold every sign-in waiting on the shared fetch.
    private func fetch(_ url: String, now: Double) async -> Result<Loaded, IdentityTokenError> {
        let shown = shownSource
        let exchange = HTTPExchange(.get, url, headers: [("Accept", "application/json")], timeout: timeout, bodyLimit: KeySet.sizeLimit)
        let answer: HTTPAnswer
        switch await exchange.perform() {
        case .success(let value): answer = value
        case .failure(let failure): return .failure(.keysUnavailable("\(shown) could not be fetched: \(describe(failure))"))
        }
        guard answer.status == 200 else {
            // The body is not shown: an error page may echo the request, query string and all.
            return .failure(.keysUnavailable("\(shown) answered HTTP \(answer.status) instead of 200 with the key set"))
        }
        switch answer.ending {
        case .complete: break
        case .overLimit:
            return .failure(.keysUnavailable("\(shown) answered more than \(KeySet.sizeLimit / 1024) KiB, more than any key set"))
        case .brokenOff(let failure):
            return .failure(.keysUnavailable("\(shown) broke off its answer: \(describe(failure))"))
        }
        let lifetime = Self.lifetime(cacheControl: answer.values(of: "Cache-Control"), age: answer.values(of: "Age").first)
        return .success(Loaded(document: answer.body, freshness: .until(now + lifetime)))
    }

    /// How long a response may be kept, from its `Cache-Control` values and `Age` (RFC 9111
    /// section 4.2.1: the lifetime left is max-age less the age), bounded by the minimum and maximum.
    static func lifetime(cacheControl: [String], age: String?) -> Double {
        var maxAge: Double?
        for directive in cacheControl.flatMap({ $0.split(separator: ",") }) {
            let parts = directive.split(separator: "=", maxSplits: 1).map { trimmed($0) }
            guard let name = parts.first else { continue }
            switch name.lowercased() {
            case "no-store", "no-cache":
                maxAge = 0
            case "max-age" where parts.count == 2:
                // RFC 9111 section 5.2: a quoted-string form is to be accepted too.
                let value =
                    parts[1].count >= 2 && parts[1].hasPrefix("\"") && parts[1].hasSuffix("\"") ? String(parts[1].dropFirst().dropLast()) : parts[1]
                if let seconds = Double(value), seconds.isFinite, maxAge == nil { maxAge = max(0, seconds) }
            default:
                continue
            }
        }
        guard let maxAge else { return defaultLifetime }
        let elapsed = age.flatMap { Double(trimmed($0[...])) }.map { max(0, $0) } ?? 0
        return min(max(maxAge - elapsed, minimumLifetime), maximumLifetime)
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// A failed exchange in a few words: libcurl's descriptions name hosts, ports and system
    /// errors, never a query string or a body.
    private func describe(_ failure: HTTPExchangeFailure) -> String {
        switch failure {
        case .timedOut, .cancelled: "no answer within \(Self.format(timeout.seconds)) s"
        case .noConnection(let detail), .brokenOff(let detail): detail
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    // MARK: - File

    private static func read(_ path: String) -> Result<Loaded, IdentityTokenError> {
        // The fingerprint is taken before the read: a file replaced meanwhile then differs from it,
        // and the next verification reads it again.
        let fingerprint: FileFingerprint
        switch Self.fingerprint(path) {
        case .success(let value): fingerprint = value
        case .failure(let error): return .failure(error)
        }
        guard fingerprint.size <= KeySet.sizeLimit else {
            return .failure(.keysUnavailable("the key file \(path) is larger than \(KeySet.sizeLimit / 1024) KiB, more than any key set"))
        }
        guard let contents = FileManager.default.contents(atPath: path) else {
            return .failure(.keysUnavailable("the key file \(path) could not be read"))
        }
        return .success(Loaded(document: Array(contents), freshness: .whileFileUnchanged(fingerprint)))
    }

    private static func fingerprint(_ path: String) -> Result<FileFingerprint, IdentityTokenError> {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            return .failure(.keysUnavailable("the key file \(path) could not be read: \(String(cString: strerror(code))) (errno \(code))"))
        }
        return .success(
            FileFingerprint(
                device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                modifiedSeconds: status.st_mtim.tv_sec, modifiedNanoseconds: status.st_mtim.tv_nsec))
    }
}
