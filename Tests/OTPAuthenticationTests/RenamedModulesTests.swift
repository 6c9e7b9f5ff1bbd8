import OTPEnrollment
import OTPEnrollmentTestSupport
import Testing

/// A package written against the names before the rename (`OTPEnrollment`, `EnrollmentStore`, ...)
/// still builds and behaves the same, with deprecation warnings that name the new ones.
@Suite("Old module and type names")
struct RenamedModulesTests {
    @available(*, deprecated, message: "uses the old names on purpose")
    @Test("the conformance suite under its old name passes on the in-memory store under its old name")
    func oldNamesStillWork() async throws {
        let store: any EnrollmentStore = InMemoryEnrollmentStore()
        let clock: any EnrollmentClock = ManualEnrollmentClock(1_700_000_000)
        #expect(clock.now() == 1_700_000_000)
        let cases: [EnrollmentStoreConformanceCase] = EnrollmentStoreConformance.cases
        #expect(!cases.isEmpty)
        for check in cases {
            try await check.run(on: store)
        }
    }
}
