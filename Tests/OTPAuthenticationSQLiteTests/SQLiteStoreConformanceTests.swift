import OTPAuthentication
import OTPAuthenticationSQLite
import OTPAuthenticationTestSupport
import Testing

/// The same conformance suite the in-memory store passes, run against SQLite.
@Suite("SQLite store conformance")
struct SQLiteStoreConformanceTests {
    @Test(arguments: AuthStoreConformance.cases)
    func conforms(_ check: AuthStoreConformanceCase) async throws {
        try await withStore { store in try await check.run(on: store) }
    }

    @Test("every check also passes on one database shared by all of them")
    func sharedStore() async throws {
        try await withStore { store in
            for check in AuthStoreConformance.cases {
                try await check.run(on: store)
            }
        }
    }
}
