import AsyncHTTPClient
import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import OTPAuthentication

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
    let client: HTTPClient?
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
            guard let client else { return .failure(.keysUnavailable("no HTTP client to fetch \(shownSource) with")) }
            return await fetch(url, client: client, now: now)
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

    private enum Race: Sendable {
        case exchange(Result<Loaded, IdentityTokenError>)
        case timerFired
        case timerCancelled
    }

    /// AHC's deadline ends at the response head; the race bounds the body too, so that a server
    /// trickling its answer cannot hold every sign-in waiting on the shared fetch.
    private func fetch(_ url: String, client: HTTPClient, now: Double) async -> Result<Loaded, IdentityTokenError> {
        let shown = shownSource
        let timeout = timeout
        return await withTaskGroup(of: Race.self) { group in
            group.addTask { .exchange(await Self.exchange(url, shown: shown, client: client, timeout: timeout, now: now)) }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return .timerCancelled }
                return .timerFired
            }
            let first = await group.next()!
            group.cancelAll()
            if case .exchange(let result) = first { return result }
            return .failure(.keysUnavailable("\(shown) did not answer within \(Self.format(timeout.seconds)) s"))
        }
    }

    private static func exchange(
        _ url: String, shown: String, client: HTTPClient, timeout: Duration, now: Double
    ) async -> Result<Loaded, IdentityTokenError> {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        do {
            let (seconds, attoseconds) = timeout.components
            response = try await client.execute(request, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
        } catch {
            return .failure(.keysUnavailable("\(shown) could not be fetched: \(describe(error, timeout: timeout))"))
        }
        guard response.status == .ok else {
            // The body is not shown: an error page may echo the request, query string and all.
            return .failure(.keysUnavailable("\(shown) answered HTTP \(response.status.code) instead of 200 with the key set"))
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: KeySet.sizeLimit)
        } catch is NIOTooManyBytesError {
            return .failure(.keysUnavailable("\(shown) answered more than \(KeySet.sizeLimit / 1024) KiB, more than any key set"))
        } catch {
            return .failure(.keysUnavailable("\(shown) broke off its answer: \(describe(error, timeout: timeout))"))
        }
        let lifetime = Self.lifetime(
            cacheControl: response.headers[canonicalForm: "Cache-Control"].map(String.init), age: response.headers.first(name: "Age"))
        return .success(Loaded(document: Array(body.readableBytesView), freshness: .until(now + lifetime)))
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

    /// A failed exchange in a few words: NIO's and AHC's descriptions name hosts, ports and error
    /// numbers, never a query string or a body.
    private static func describe(_ error: any Error, timeout: Duration) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout, .cancelled:
                return "no answer within \(format(timeout.seconds)) s"
            case .remoteConnectionClosed:
                return "the connection closed without an answer"
            default:
                return String(describing: error)
            }
        }
        if error is CancellationError { return "no answer within \(format(timeout.seconds)) s" }
        if let error = error as? IOError { return "\(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))" }
        if let error = error as? NIOConnectionError {
            let causes = error.connectionErrors.map { describe($0.error, timeout: timeout) }
            return causes.isEmpty ? "no address to connect to" : Set(causes).sorted().joined(separator: "; ")
        }
        return String(describing: type(of: error))
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
