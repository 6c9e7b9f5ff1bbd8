import Benchmark
import Foundation
import PostgresNIO
import SQLiteNIO

nonisolated(unsafe) var rawConnections: [PostgresConnection] = []
nonisolated(unsafe) var rawSQLite: SQLiteConnection!

/// What each database commits without OTPKit, for scale: a thousand one-row updates per
/// iteration, time per update. PostgreSQL: `clients` connections, each updating its own row in
/// transactions of its own (`BEGIN`, `UPDATE`, `COMMIT`, as every store write). SQLite (WAL,
/// `synchronous = FULL`, as the store): one connection, a commit per update (`alone`) or per 64
/// (`grouped`, as the store's group commit).
func registerRawCommitBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock], warmupIterations: 1, scalingFactor: .kilo, maxDuration: .seconds(10), maxIterations: 20)
    for (name, perCommit) in [("alone", 1), ("grouped", 64)] {
        Benchmark("otpkit.enrollment.commit.sqlite.\(name)", configuration: configuration) { benchmark in
            benchmark.startMeasurement()
            for _ in 0..<(1000 / perCommit) {
                _ = try await rawSQLite.query("BEGIN IMMEDIATE")
                for row in 0..<perCommit {
                    _ = try await rawSQLite.query("UPDATE counters SET n = n + 1 WHERE id = ?", [.integer(row)])
                }
                _ = try await rawSQLite.query("COMMIT")
            }
            benchmark.stopMeasurement()
        } setup: {
            _ = try makeSQLiteDirectory()
            rawSQLite = try await SQLiteConnection.open(storage: .file(path: sqliteDirectory.appendingPathComponent("raw.sqlite").path))
            for statement in [
                "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)",
                "WITH RECURSIVE i(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM i WHERE x < 63) INSERT INTO counters SELECT x, 0 FROM i",
            ] {
                _ = try await rawSQLite.query(statement)
            }
        } teardown: {
            try? await rawSQLite.close()
            try? FileManager.default.removeItem(at: sqliteDirectory)
        }
    }
    for clients in [1, 16, 64] {
        Benchmark("otpkit.enrollment.commit.postgres.clients\(clients)", configuration: configuration) { benchmark in
            benchmark.startMeasurement()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (client, connection) in rawConnections.enumerated() {
                    group.addTask {
                        for _ in stride(from: client, to: 1000, by: clients) {
                            try await connection.query("BEGIN", logger: logger)
                            try await connection.query("UPDATE counters SET n = n + 1 WHERE id = \(client)", logger: logger)
                            try await connection.query("COMMIT", logger: logger)
                        }
                    }
                }
                try await group.waitForAll()
            }
            benchmark.stopMeasurement()
        } setup: {
            try await resetSchema()
            rawConnections = []
            for _ in 0..<clients { rawConnections.append(try await connectRaw()) }
            let first = rawConnections[0]
            try await first.query(
                PostgresQuery(unsafeSQL: "CREATE TABLE \(benchmarkSchema).counters (id bigint PRIMARY KEY, n bigint NOT NULL)"), logger: logger)
            try await first.query(
                PostgresQuery(unsafeSQL: "INSERT INTO \(benchmarkSchema).counters SELECT i, 0 FROM generate_series(0, \(clients - 1)) AS i"),
                logger: logger)
            for connection in rawConnections {
                try await connection.query(PostgresQuery(unsafeSQL: "SET search_path = \(benchmarkSchema)"), logger: logger)
            }
        } teardown: {
            for connection in rawConnections { try? await connection.close() }
            rawConnections = []
        }
    }
}
