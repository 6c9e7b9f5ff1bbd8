import Foundation
import Logging
import NIOCore
import OTPCore
import OTPEnrollment
import OTPEnrollmentPostgres
import OTPSealing
import PostgresNIO
import Testing

/// The PostgreSQL server of the tests, from the variables `bash Tests/test.sh` exports after
/// starting a throwaway cluster (.ci/postgres). Missing variables or an unreachable server fail
/// the test, never skip it.
enum TestServer {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    static let environment: [String: String] = PostgresEnrollmentStore.processEnvironment

    /// `PGHOST` (the socket directory), `PGPORT` and `PGUSER`, or a failure saying how to get them.
    static func settings() throws -> (socketDirectory: String, port: Int, user: String) {
        guard let host = environment["PGHOST"], host.hasPrefix("/"), let port = environment["PGPORT"].flatMap(Int.init),
            let user = environment["PGUSER"]
        else {
            throw Unavailable(
                description:
                    "the PostgreSQL tests need PGHOST (a socket directory), PGPORT and PGUSER of a running server: run bash Tests/test.sh, which starts one"
            )
        }
        return (host, port, user)
    }

    /// A plain connection to `database` as the cluster's superuser, for what the tests check and
    /// set up beside the store.
    static func connect(database: String) async throws -> PostgresConnection {
        let (directory, port, user) = try settings()
        let configuration = PostgresConnection.Configuration(
            unixSocketPath: "\(directory)/.s.PGSQL.\(port)", username: user, password: nil, database: database)
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        } catch {
            throw Unavailable(description: "cannot connect to the test server at \(directory) port \(port) (\(error)): run bash Tests/test.sh")
        }
    }

    static let logger = Logger(label: "OTPEnrollmentPostgresTests")
}

/// A fresh place of its own for one test, so that tests run in parallel: a schema
/// `otpkit_<random>` in the test database (`PGDATABASE`), which the store uses through
/// `PGOPTIONS=-c search_path=…`, or a whole database of that name for tests that act on every
/// connection of a database. ``drop()`` removes it.
final class TestDatabase: Sendable {
    let name: String
    /// The database: the test database, or `name` when the test has one of its own.
    let database: String
    let key: SealingKey
    /// The key in hexadecimal, as a helper process reads it from `OTPKIT_SEALING_KEY`.
    let keyHex: String

    private init(name: String, database: String, keyBytes: [UInt8]) throws {
        self.name = name
        self.database = database
        self.key = try SealingKey(bytes: keyBytes)
        self.keyHex = keyBytes.map { String(format: "%02x", $0) }.joined()
    }

    /// A fresh schema, or with `ownDatabase` a fresh database.
    static func create(ownDatabase: Bool = false) async throws -> TestDatabase {
        let name = "otpkit_" + (0..<12).map { _ in String(Int.random(in: 0..<36), radix: 36) }.joined()
        let shared = TestServer.environment["PGDATABASE"] ?? "otpkit_test"
        let admin = try await TestServer.connect(database: ownDatabase ? "postgres" : shared)
        defer { Task { try? await admin.close() } }
        let statement = ownDatabase ? "CREATE DATABASE \(name)" : "CREATE SCHEMA \(name)"
        try await admin.query(PostgresQuery(unsafeSQL: statement), logger: TestServer.logger)
        return try TestDatabase(name: name, database: ownDatabase ? name : shared, keyBytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    var isOwnDatabase: Bool { database == name }

    func drop() async {
        guard let admin = try? await TestServer.connect(database: isOwnDatabase ? "postgres" : database) else { return }
        let statement = isOwnDatabase ? "DROP DATABASE IF EXISTS \(name) WITH (FORCE)" : "DROP SCHEMA IF EXISTS \(name) CASCADE"
        _ = try? await admin.query(PostgresQuery(unsafeSQL: statement), logger: TestServer.logger)
        try? await admin.close()
    }

    /// libpq's variables for this schema or database (the socket of the test server).
    var environment: [String: String] {
        get throws {
            let (directory, port, user) = try TestServer.settings()
            var environment = ["PGHOST": directory, "PGPORT": "\(port)", "PGUSER": user, "PGDATABASE": database]
            if !isOwnDatabase { environment["PGOPTIONS"] = "-c search_path=\(name)" }
            return environment
        }
    }

    func open(
        current: SealingKey? = nil, previous: [SealingKey] = [], poolSize: Int = 4, options: PostgresEnrollmentStore.Options = .init()
    ) async throws -> PostgresEnrollmentStore {
        try await PostgresEnrollmentStore.open(
            environment: try environment, sealer: SecretSealer(current: current ?? key, previous: previous), poolSize: poolSize, options: options)
    }

    /// A connection beside the store, its search path on this test's schema.
    func connect() async throws -> PostgresConnection {
        let connection = try await TestServer.connect(database: database)
        if !isOwnDatabase {
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(name)"), logger: TestServer.logger)
        }
        return connection
    }

    /// Runs `sql` beside the store and returns its rows.
    @discardableResult
    func query(_ sql: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
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

/// Runs `body` on a store in a fresh schema (or database), then closes the store and drops it.
func withStore<Result>(ownDatabase: Bool = false, _ body: (PostgresEnrollmentStore, TestDatabase) async throws -> Result) async throws -> Result {
    let database = try await TestDatabase.create(ownDatabase: ownDatabase)
    do {
        let store = try await database.open()
        do {
            let result = try await body(store, database)
            await store.close()
            await database.drop()
            return result
        } catch {
            await store.close()
            throw error
        }
    } catch {
        await database.drop()
        throw error
    }
}

/// Enrolls a TOTP factor for `userID` through the store (pending enrollment, then finalization).
@discardableResult
func enroll(
    _ store: PostgresEnrollmentStore, id: String = "factor-\(UInt64.random(in: 0...UInt64.max))", userID: String = "user-1",
    secret: OTPSecret? = nil
) async throws -> FactorRecord {
    let secret = try secret ?? OTPSecret.random(for: .sha1)
    let now = TOTP.currentUnixTime()
    let pending = PendingEnrollmentRecord(
        id: "pending-\(id)", userID: userID, secret: secret, algorithm: .sha1, digits: 6, period: 30, createdAt: now, deadline: now + 600)
    try await store.insertPendingEnrollment(pending)
    let factor = FactorRecord(
        id: id, userID: userID, factorID: "totp", displayName: "phone", enrolledAt: now, secret: secret, algorithm: .sha1, digits: 6,
        period: 30, lastAcceptedStep: nil)
    try #require(try await store.finalizeEnrollment(pendingID: pending.id, factor: factor, maximumFactorCount: 5) == .enrolled)
    return factor
}
