import OTPAuthentication
import OTPAuthenticationTestSupport
import Testing

@Suite("In-memory store conformance")
struct InMemoryAuthStoreTests {
    @Test(arguments: AuthStoreConformance.cases)
    func conforms(_ check: AuthStoreConformanceCase) async throws {
        try await check.run(on: InMemoryAuthStore())
    }

    @Test("every check also passes on one store shared by all of them")
    func sharedStore() async throws {
        let store = InMemoryAuthStore()
        for check in AuthStoreConformance.cases {
            try await check.run(on: store)
        }
    }
}
