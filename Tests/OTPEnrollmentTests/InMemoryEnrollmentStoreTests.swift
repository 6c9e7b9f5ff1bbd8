import OTPEnrollment
import OTPEnrollmentTestSupport
import Testing

@Suite("In-memory store conformance")
struct InMemoryEnrollmentStoreTests {
    @Test(arguments: EnrollmentStoreConformance.cases)
    func conforms(_ check: EnrollmentStoreConformanceCase) async throws {
        try await check.run(on: InMemoryEnrollmentStore())
    }

    @Test("every check also passes on one store shared by all of them")
    func sharedStore() async throws {
        let store = InMemoryEnrollmentStore()
        for check in EnrollmentStoreConformance.cases {
            try await check.run(on: store)
        }
    }
}
