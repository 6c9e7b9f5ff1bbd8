import OTPEnrollment
import OTPEnrollmentPostgres
import OTPEnrollmentTestSupport
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
                    IF NEW.id = '\(unescaped: EnrollmentStoreConformance.refusedSessionID)' THEN RAISE EXCEPTION 'refused by the test'; END IF;
                    RETURN NEW;
                END $$
                """)
            _ = try await database.query("CREATE TRIGGER refuse_session BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION refuse_session()")
            let failed = try await EnrollmentStoreConformance.failedSignInBatch(on: store)
            #expect(failed >= 1)
            // The store goes on after a failed batch.
            #expect(try await store.recordFailure(key: "after", at: 1_800_000_000, limit: 5, lockout: 300).consecutiveFailures == 1)
        }
    }
}
