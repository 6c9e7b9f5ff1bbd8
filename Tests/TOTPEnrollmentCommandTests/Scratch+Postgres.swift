import OTPPostgresTestServer

extension Scratch {
    /// Runs `body` with a scratch whose `--db` is a `postgresql://` URL naming a schema of its own
    /// on the test server (`bash Tests/test.sh` starts it; without it the test fails), dropped
    /// afterwards.
    static func onPostgres<Result>(_ body: (Scratch, TestDatabase) async throws -> Result) async throws -> Result {
        try await TestDatabase.withFresh { database in
            try await body(try Scratch(database: try database.url), database)
        }
    }
}
