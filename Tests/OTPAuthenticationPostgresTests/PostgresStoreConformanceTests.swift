import OTPAuthentication
import OTPAuthenticationPostgres
import OTPAuthenticationTestSupport
import Testing

/// The same conformance suite the in-memory and SQLite stores pass, run against PostgreSQL.
@Suite("Postgres store conformance")
struct PostgresStoreConformanceTests {
    @Test(arguments: AuthStoreConformance.cases)
    func conforms(_ check: AuthStoreConformanceCase) async throws {
        try await withStore { store, _ in try await check.run(on: store) }
    }

    @Test("every check also passes on one database shared by all of them")
    func sharedStore() async throws {
        try await withStore { store, _ in
            for check in AuthStoreConformance.cases {
                try await check.run(on: store)
            }
        }
    }
}
