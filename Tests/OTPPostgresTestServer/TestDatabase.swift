import Foundation
public import OTPAuthenticationPostgres
public import OTPSealing
public import PostgresNIO

/// A fresh place of its own for one test, so that tests run in parallel: a schema
/// `otpkit_<random>` in the test database (`PGDATABASE`), which the store uses through
/// `PGOPTIONS=-c search_path=…`, or a whole database of that name for tests that act on every
/// connection of a database. ``drop()`` removes it.
public final class TestDatabase: Sendable {
    public let name: String
    /// The database: the test database, or `name` when the test has one of its own.
    public let database: String
    public let key: SealingKey
    /// The key in hexadecimal, as a helper process reads it from `OTPKIT_SEALING_KEY`.
    public let keyHex: String

    private init(name: String, database: String, keyBytes: [UInt8]) throws {
        self.name = name
        self.database = database
        self.key = try SealingKey(bytes: keyBytes)
        self.keyHex = keyBytes.map { String(format: "%02x", $0) }.joined()
    }

    /// A fresh schema, or with `ownDatabase` a fresh database.
    public static func create(ownDatabase: Bool = false) async throws -> TestDatabase {
        let name = "otpkit_" + (0..<12).map { _ in String(Int.random(in: 0..<36), radix: 36) }.joined()
        let shared = TestServer.environment["PGDATABASE"] ?? "otpkit_test"
        let admin = try await TestServer.connect(database: ownDatabase ? "postgres" : shared)
        defer { Task { try? await admin.close() } }
        let statement = ownDatabase ? "CREATE DATABASE \(name)" : "CREATE SCHEMA \(name)"
        try await admin.query(PostgresQuery(unsafeSQL: statement), logger: TestServer.logger)
        return try TestDatabase(name: name, database: ownDatabase ? name : shared, keyBytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    /// Runs `body` in a fresh schema (or with `ownDatabase` a fresh database), and drops it
    /// whatever happens.
    public static func withFresh<Result>(ownDatabase: Bool = false, _ body: (TestDatabase) async throws -> Result) async throws -> Result {
        let database = try await create(ownDatabase: ownDatabase)
        do {
            let result = try await body(database)
            await database.drop()
            return result
        } catch {
            await database.drop()
            throw error
        }
    }

    public var isOwnDatabase: Bool { database == name }

    public func drop() async {
        guard let admin = try? await TestServer.connect(database: isOwnDatabase ? "postgres" : database) else { return }
        let statement = isOwnDatabase ? "DROP DATABASE IF EXISTS \(name) WITH (FORCE)" : "DROP SCHEMA IF EXISTS \(name) CASCADE"
        _ = try? await admin.query(PostgresQuery(unsafeSQL: statement), logger: TestServer.logger)
        try? await admin.close()
    }

    /// libpq's variables for this schema or database (the socket of the test server).
    public var environment: [String: String] {
        get throws {
            let (directory, port, user) = try TestServer.settings()
            var environment = ["PGHOST": directory, "PGPORT": "\(port)", "PGUSER": user, "PGDATABASE": database]
            if !isOwnDatabase { environment["PGOPTIONS"] = "-c search_path=\(name)" }
            return environment
        }
    }

    /// The same place as a `postgresql://` URL, as a program's `--db` takes it: the socket
    /// directory percent-encoded as the host, the schema through `options`.
    public var url: String {
        get throws {
            let (directory, port, user) = try TestServer.settings()
            let host = directory.replacingOccurrences(of: "/", with: "%2F")
            let options = isOwnDatabase ? "" : "?options=-c%20search_path%3D\(name)"
            return "postgresql://\(user)@\(host):\(port)/\(database)\(options)"
        }
    }

    public func open(
        current: SealingKey? = nil, previous: [SealingKey] = [], poolSize: Int = 4, options: PostgresAuthStore.Options = .init()
    ) async throws -> PostgresAuthStore {
        try await PostgresAuthStore.open(
            environment: try environment, sealer: SecretSealer(current: current ?? key, previous: previous), poolSize: poolSize, options: options)
    }

    /// A connection beside the store, its search path on this test's schema.
    public func connect() async throws -> PostgresConnection {
        let connection = try await TestServer.connect(database: database)
        if !isOwnDatabase {
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(name)"), logger: TestServer.logger)
        }
        return connection
    }

    /// How many rows `table` holds here: what a program wrote, seen from beside it.
    public func rowCount(_ table: String) async throws -> Int {
        let rows = try await query(PostgresQuery(unsafeSQL: "SELECT count(*) AS rows FROM \(table)"))
        return try rows.first?["rows"].decode(Int.self) ?? 0
    }

    /// Lets `role` create and use tables in this test's schema, as a store logging in as `role` must.
    public func grant(to role: String) async throws {
        try await query(PostgresQuery(unsafeSQL: "GRANT ALL ON SCHEMA \(name) TO \(role)"))
    }

    /// Runs `sql` beside the store and returns its rows.
    @discardableResult
    public func query(_ sql: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        let connection = try await connect()
        do {
            let rows = try await connection.query(sql, logger: TestServer.logger).collect().map { $0.makeRandomAccess() }
            try await connection.close()
            return rows
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

extension TestDatabase: CustomReflectable {
    /// Only the schema's name: a failed expectation's description never walks into connections.
    public var customMirror: Mirror { Mirror(self, children: ["name": name]) }
}
