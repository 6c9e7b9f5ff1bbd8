import OTPAuthentication
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

/// The administration's calls answer at their old place on the service, for one release.
@Suite("Administration under its old calls")
struct MovedAdministrationTests {
    @available(*, deprecated, message: "uses the old calls on purpose")
    @Test("an account created, read, listed and deleted through the service's old calls is the one the administration sees")
    func oldCallsForward() async throws {
        let service = try MultiFactorService(store: InMemoryAuthStore(), clock: ManualAuthClock(1_700_000_000))
        guard
            case .created(let account) = try await service.createAccount(
                id: "ada", email: "Ada@Example.com", password: nil, displayName: "Ada", photoURL: nil, isEmailVerified: true, isDisabled: false)
        else {
            Issue.record("the account was not created")
            return
        }
        #expect(try await service.administration.accountDetails(id: "ada")?.account == account)
        #expect(try await service.accountDetails(email: "ada@example.com")?.account.id == "ada")
        #expect(try await service.accounts(after: nil, limit: MultiFactorService.maximumAccountPageSize).accounts.map(\.account.id) == ["ada"])
        #expect(try await service.enrolledFactors(accountID: "ada").isEmpty)
        #expect(try await service.deleteAccount(id: "ada"))
        #expect(try await service.administration.accountDetails(id: "ada") == nil)
    }
}
