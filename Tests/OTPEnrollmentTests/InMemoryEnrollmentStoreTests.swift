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

    /// `FailingStore` implements only the single operations, so the composed sign-in operations
    /// come from the protocol's default implementations: every check but those of races the
    /// defaults document they do not decide (the case says which).
    @Test(
        "the protocol's default compositions conform too, but for races they document",
        arguments: EnrollmentStoreConformance.cases.filter(\.holdsForComposedDefaults))
    func defaultCompositionsConform(_ check: EnrollmentStoreConformanceCase) async throws {
        try await check.run(on: FailingStore())
    }
}
