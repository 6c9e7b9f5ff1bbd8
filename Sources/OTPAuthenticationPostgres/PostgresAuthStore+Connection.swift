internal import Logging
internal import NIOCore
internal import NIOPosix
internal import NIOSSL
internal import PostgresNIO

internal import Glibc

extension PostgresAuthStore {
    /// The process's environment variables, where ``open(environment:sealer:poolSize:options:logger:)``
    /// reads libpq's by default.
    public static var processEnvironment: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}

/// libpq's `sslmode`.
enum SSLMode: String, CaseIterable {
    case disable, allow, prefer, require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"
}

/// Where the server is and how to log in, read from a URL or libpq's environment variables.
struct ConnectionSettings: Sendable, CustomStringConvertible {
    enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file: the directory libpq names, plus `.s.PGSQL.<port>`.
        case socket(path: String)
    }

    var endpoint: Endpoint
    var user: String
    var password: String?
    var database: String
    var sslMode: SSLMode
    var rootCertificate: String?
    /// libpq's `options`: server settings for each connection, such as `-c search_path=tenant`.
    var serverOptions: String?

    /// Debian's socket directory, where libpq looks when no host is given.
    static let defaultSocketDirectory = "/var/run/postgresql"

    /// `user@host:port/database`: what errors name, never the password.
    var description: String {
        switch endpoint {
        case .tcp(let host, let port):
            let shown = host.contains(":") ? "[\(host)]" : host
            return "\(user)@\(shown):\(port)/\(database)"
        case .socket(let path):
            return "\(user)@\(path)/\(database)"
        }
    }

    // MARK: Reading

    /// Reads a `postgres://` or `postgresql://` URL; libpq's variables in `environment` give
    /// what the URL leaves out, as libpq does. Errors name the part that is wrong and never quote
    /// the password (nor the URL, which holds it).
    init(url: String, environment: [String: String] = [:]) throws(PostgresAuthStoreError) {
        var rest: Substring
        if url.hasPrefix("postgres://") {
            rest = url.dropFirst("postgres://".count)
        } else if url.hasPrefix("postgresql://") {
            rest = url.dropFirst("postgresql://".count)
        } else {
            throw .invalidURL(reason: "it must start with postgres:// or postgresql://")
        }
        guard !rest.contains("#") else { throw .invalidURL(reason: "it has a fragment (#…), which PostgreSQL URLs do not take") }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        // An @ past the host means a / or ? inside the user name or password cut the URL short:
        // read on, a piece of the password would become the port, the database or a parameter
        // name, and so appear in an error or in the server's description.
        guard !path.contains("@"), !query.contains("@") else {
            throw .invalidURL(
                reason: "it has an @ after the host: percent-encode / ? # @ in the user name, password, database and parameters (%2F %3F %23 %40)")
        }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decoded(userInfo[..<colon], part: "user name")
                password = try Self.decoded(userInfo[userInfo.index(after: colon)...], part: "password")
            } else {
                user = try Self.decoded(userInfo, part: "user name")
            }
        }
        guard !rest.contains(",") else { throw .invalidURL(reason: "it names several hosts; give one") }
        var host: String?
        var port: String?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .invalidURL(reason: "an IPv6 address lacks its closing ]") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                port = String(after.dropFirst())
            } else if !after.isEmpty {
                throw .invalidURL(reason: "unexpected text after the IPv6 address")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = try Self.decoded(rest[..<colon], part: "host")
            port = String(rest[rest.index(after: colon)...])
        } else if !rest.isEmpty {
            host = try Self.decoded(rest, part: "host")
        }
        var database = path.isEmpty ? nil : try Self.decoded(path, part: "database name")
        var sslMode: String?
        var rootCertificate: String?
        var serverOptions: String?
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decoded(parts[0], part: "parameter name")
            let value = parts.count > 1 ? try Self.decoded(parts[1], part: "value of parameter \(name)") : ""
            switch name {
            case "sslmode": sslMode = value
            case "sslrootcert": rootCertificate = value
            case "host": host = value
            case "port": port = value
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "options": serverOptions = value
            case "application_name", "connect_timeout": break
            default: throw .invalidURL(reason: "unknown parameter \(name)")
            }
        }
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if host == nil, let fallback = variable("PGHOST"), fallback.contains(",") {
            throw .invalidEnvironment(variable: "PGHOST", reason: "it names several hosts; give one")
        }
        try self.init(
            host: host ?? variable("PGHOST"), port: port ?? variable("PGPORT"), user: user ?? variable("PGUSER"),
            password: password ?? variable("PGPASSWORD"), database: database ?? variable("PGDATABASE"), sslMode: sslMode ?? variable("PGSSLMODE"),
            rootCertificate: rootCertificate ?? variable("PGSSLROOTCERT"), serverOptions: serverOptions ?? variable("PGOPTIONS"),
            invalid: { parameter, reason in
                let fromURL =
                    switch parameter {
                    case .port: port != nil
                    case .user: user != nil
                    case .sslMode: sslMode != nil
                    }
                return fromURL ? .invalidURL(reason: reason) : .invalidEnvironment(variable: parameter.variable, reason: reason)
            })
    }

    /// Reads libpq's variables: `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`,
    /// `PGSSLMODE`, `PGSSLROOTCERT`, `PGOPTIONS`.
    init(environment: [String: String]) throws(PostgresAuthStoreError) {
        // A URL that names nothing leaves every parameter to the variables.
        try self.init(url: "postgres://", environment: environment)
    }

    /// A parameter whose value can be refused, to name where it came from.
    private enum Parameter {
        case port, user, sslMode

        /// libpq's variable for it.
        var variable: String {
            switch self {
            case .port: "PGPORT"
            case .user: "PGUSER"
            case .sslMode: "PGSSLMODE"
            }
        }
    }

    /// libpq's defaults: the socket directory when no host is given, port 5432, the login name as
    /// user, the user name as database, `prefer` as TLS mode.
    private init(
        host: String?, port: String?, user: String?, password: String?, database: String?, sslMode: String?, rootCertificate: String?,
        serverOptions: String?, invalid: (Parameter, String) -> PostgresAuthStoreError
    ) throws(PostgresAuthStoreError) {
        var portNumber = 5432
        if let port {
            guard let number = Int(port), (1...65535).contains(number) else {
                throw invalid(.port, "port \(port.prefix(20)) is not a number from 1 to 65535")
            }
            portNumber = number
        }
        let host = host ?? Self.defaultSocketDirectory
        endpoint = host.hasPrefix("/") ? .socket(path: "\(host)/.s.PGSQL.\(portNumber)") : .tcp(host: host, port: portNumber)
        guard let user = user ?? Self.loginName() else { throw invalid(.user, "user name: none is given and the login name is unknown") }
        self.user = user
        self.password = password
        self.database = database ?? user
        guard let mode = SSLMode(rawValue: sslMode ?? "prefer") else {
            throw invalid(.sslMode, "sslmode \(sslMode?.prefix(20) ?? "") is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.sslMode = mode
        self.rootCertificate = rootCertificate
        self.serverOptions = serverOptions
    }

    private static func loginName() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// Percent-decodes one part of the URL; a malformed escape names the part, not its text.
    private static func decoded(_ text: Substring, part: String) throws(PostgresAuthStoreError) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else {
                throw .invalidURL(reason: "the \(part) has a malformed percent escape")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .invalidURL(reason: "the \(part) is not UTF-8 once percent escapes are decoded")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: postgres-nio

    /// The TLS settings of libpq's `sslmode`: `prefer` and `require` encrypt without checking the
    /// certificate (unless `sslrootcert` is given, as libpq does), `verify-ca` checks the chain,
    /// `verify-full` the chain and the host name.
    func tlsConfiguration() -> TLSConfiguration? {
        guard case .tcp = endpoint, sslMode != .disable else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        let verifies = sslMode == .verifyCA || sslMode == .verifyFull || (sslMode == .require && rootCertificate != nil)
        configuration.certificateVerification = !verifies ? .none : sslMode == .verifyFull ? .fullVerification : .noHostnameVerification
        if let rootCertificate {
            configuration.trustRoots = .file(rootCertificate)
        }
        return configuration
    }

    /// Whether the connection must be encrypted (otherwise TLS is used when the server offers it).
    var requiresTLS: Bool { sslMode == .require || sslMode == .verifyCA || sslMode == .verifyFull }

    /// The startup parameters beyond user and database: libpq's `options`, when given.
    var startupParameters: [(String, String)] { serverOptions.map { [("options", $0)] } ?? [] }

    func clientConfiguration() throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch endpoint {
        case .socket(let path):
            configuration = PostgresClient.Configuration(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS =
                if let configuration = tlsConfiguration() { requiresTLS ? .require(configuration) : .prefer(configuration) } else { .disable }
            configuration = PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    func connectionConfiguration(timeout: Duration) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case .socket(let path):
            configuration = PostgresConnection.Configuration(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS
            if let tlsConfiguration = tlsConfiguration() {
                let context = try NIOSSLContext(configuration: tlsConfiguration)
                tls = requiresTLS ? .require(context) : .prefer(context)
            } else {
                tls = .disable
            }
            configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .milliseconds(timeout.milliseconds)
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// Makes one connection and closes it, to report why the server cannot be used: out of reach,
    /// the login refused, no such database, TLS refused.
    func checkConnection(timeout: Duration, logger: Logger) async throws(PostgresAuthStoreError) {
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try connectionConfiguration(timeout: timeout)
        } catch {
            throw .tlsFailed(server: description, reason: "\(error)")
        }
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try? await connection.close()
        } catch {
            throw diagnose(error)
        }
    }

    /// What a failed connection attempt says about the settings.
    func diagnose(_ error: any Error) -> PostgresAuthStoreError {
        if let error = error as? PSQLError {
            switch error.code {
            case .server:
                let sqlState = error.serverInfo?[.sqlState] ?? ""
                let message = error.serverInfo?[.message] ?? "no message"
                switch sqlState {
                case "28P01", "28000": return .authenticationFailed(server: description, reason: message)
                case "3D000": return .databaseNotFound(server: description, database: database)
                default: return .unreachable(server: description, reason: "SQLSTATE \(sqlState): \(message)")
                }
            case .sslUnsupported:
                return .tlsFailed(server: description, reason: "the server does not offer TLS")
            case .authMechanismRequiresPassword:
                return .authenticationFailed(server: description, reason: "the server asks for a password and none was given")
            case .unsupportedAuthMechanism, .saslError:
                return .authenticationFailed(server: description, reason: "\(error.code)")
            case .failedToAddSSLHandler:
                return .tlsFailed(server: description, reason: PostgresAuthStore.reason(error))
            default:
                if let underlying = error.underlying, Self.isTLSError(underlying) {
                    return .tlsFailed(server: description, reason: "\(underlying)")
                }
                return .unreachable(server: description, reason: PostgresAuthStore.reason(error))
            }
        }
        if Self.isTLSError(error) { return .tlsFailed(server: description, reason: "\(error)") }
        return .unreachable(server: description, reason: "\(error)")
    }

    private static func isTLSError(_ error: any Error) -> Bool {
        error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError
    }
}
