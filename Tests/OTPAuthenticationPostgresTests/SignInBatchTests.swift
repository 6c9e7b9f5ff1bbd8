import OTPCore
import OTPAuthentication
import OTPAuthenticationPostgres
import OTPAuthenticationTestSupport
import PostgresNIO
import Testing

/// Concurrent sign-ins decided together in one transaction: a batch the database refuses writes
/// nothing of any sign-in in it.
@Suite("Postgres: sign-in batches")
struct SignInBatchTests {
    @Test("a batch of sign-in completions that PostgreSQL refuses (a trigger on one session) fails as a whole and writes nothing")
    func failedSignInBatch() async throws {
        try await withStore { store, database in
            _ = try await database.query(
                """
                CREATE FUNCTION refuse_session() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.id = '\(unescaped: AuthStoreConformance.refusedSessionID)' THEN RAISE EXCEPTION 'refused by the test'; END IF;
                    RETURN NEW;
                END $$
                """)
            _ = try await database.query("CREATE TRIGGER refuse_session BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION refuse_session()")
            let failed = try await AuthStoreConformance.failedSignInBatch(on: store)
            #expect(failed >= 1)
            // The store goes on after a failed batch.
            #expect(try await store.recordFailure(key: "after", at: 1_800_000_000, limit: 5, lockout: 300).consecutiveFailures == 1)
        }
    }
}

/// A sign-in moves its factor's last accepted step on: an update of one row that PostgreSQL makes
/// without new index entries (a heap-only tuple) when the row's page has room for its new version.
@Suite("Postgres: factor updates")
struct FactorUpdateTests {
    @Test("sign-ins update a factor within its page: the table keeps room in its pages for the new versions")
    func updatedWithinItsPage() async throws {
        try await withStore { store, database in
            // The first factor, then enough others to fill more than the first page, which holds it.
            let first = try await enroll(store, userID: "user-0")
            for index in 1..<100 { try await enroll(store, userID: "user-\(index)") }
            func page(of factor: FactorRecord) async throws -> Int32 {
                let rows = try await database.query("SELECT (ctid::text::point)[0]::int4 AS page FROM factors WHERE id = \(factor.id)")
                return try #require(rows.first)["page"].decode(Int32.self)
            }
            let pages = try await database.query("SELECT DISTINCT (ctid::text::point)[0] FROM factors").count
            try #require(pages >= 2, "the factors fill more than one page")
            let before = try await page(of: first)
            let now = TOTP.currentUnixTime()
            for step in 1...20 {
                let credential = PendingSignInRecord(
                    id: "credential-\(step)", userID: first.userID, firstFactorProvider: "password", createdAt: now, expiresAt: now + 300)
                let session = SessionRecord(
                    id: "session-\(step)", userID: first.userID, firstFactorProvider: "password", authenticatedAt: now,
                    secondFactorEnrollmentID: first.id, lastUsedAt: now, expiresAt: now + 3_600)
                let completion = try await store.completeSignIn(
                    credential: credential, factorID: first.id, step: UInt64(step), at: now, session: session, maximumSessionsPerUser: 5)
                try #require(completion == .completed)
            }
            #expect(try await page(of: first) == before, "every new version of the factor stayed on its page")
        }
    }
}
