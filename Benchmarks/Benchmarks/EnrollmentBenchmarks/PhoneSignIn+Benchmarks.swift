import Benchmark
import Foundation
import Logging
import OTPAuthentication
import OTPAuthenticationSQLite
import Synchronization

/// A sender that only keeps the last text sent to each number, in memory: no I/O, so a phone
/// sign-in's figure is the service's and the store's work, not a gateway's.
final class RecordingSMSSender: SMSSender {
    private let texts = Mutex<[String: String]>([:])

    func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        texts.withLock { $0[phoneNumber] = text }
    }

    /// The code of the last text sent to `phoneNumber` (the default template starts with it).
    func code(sentTo phoneNumber: String) -> String {
        guard let text = texts.withLock({ $0[phoneNumber] }) else { fatalError("no text was sent to \(phoneNumber)") }
        return String(text.prefix(6))
    }
}

/// Users with one enrolled phone factor each (distinct real-format numbers, not test numbers: test
/// numbers skip the quotas and the sender, which are part of the path measured). The send quotas
/// are raised so they never trip, as every user receives a code per pass over the users. As in
/// `SignInFixture`, sign-ins take the users in turn and the clock moves on by 30 seconds per
/// sign-in (per batch of first steps for the second-step benchmarks).
final class PhoneSignInFixture: @unchecked Sendable {
    struct Account {
        let identity: FirstFactorIdentity
        let phoneNumber: String
    }

    static let settings = PhoneSettings(
        isEnabled: true, sendsPerNumber: 1_000_000_000, sendsPerUser: 1_000_000_000, dailySendsPerNumber: 1_000_000_000)

    let clock = ManualAuthClock(1_800_000_000)
    let sender = RecordingSMSSender()
    let service: MultiFactorService
    private let provider = PhoneAuthProvider.provider()
    private let userCount: Int
    private var accounts: [Account] = []
    private var next = 0

    init(store: any AuthStore, users: Int) throws {
        precondition(users <= 10_000, "one number per user from +1 201 555 0000 to +1 201 555 9999")
        userCount = users
        var logger = Logger(label: "OTPKitBenchmarks")
        logger.logLevel = .critical
        service = try MultiFactorService(
            configuration: MultiFactorConfiguration(phone: Self.settings), store: store, clock: clock, smsSender: sender, logger: logger)
    }

    func enroll() async throws {
        for index in 0..<userCount {
            let userID = "user-\(index)"
            let digits = String(index)
            let phoneNumber = "+1201555" + String(repeating: "0", count: 4 - digits.count) + digits
            let identity = FirstFactorIdentity(userID: userID, email: "\(userID)@example.com", isEmailVerified: true, provider: .password)
            let user = try await service.signIn(identity)
            let id = try await provider.verifyPhoneNumber(phoneNumber, multiFactorSession: try await user.multiFactor.session())
            let credential = provider.credential(withVerificationID: id, verificationCode: sender.code(sentTo: phoneNumber))
            try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: credential), displayName: nil)
            accounts.append(Account(identity: identity, phoneNumber: phoneNumber))
        }
    }

    /// First factor accepted, second factor required, a code sent to the phone, then the code
    /// checked: a whole phone login.
    func signIn() async throws {
        clock.advance(by: 30)
        let (resolver, assertion) = try await startSignIn()
        _ = try await resolver.resolveSignIn(with: assertion)
    }

    /// The first steps (first factor, code sent) of `count` sign-ins of different users, with the
    /// assertion each will complete with (for a benchmark of the completion alone).
    func startSignIns(_ count: Int) async throws -> [(MultiFactorResolver, PhoneMultiFactorAssertion)] {
        precondition(count <= accounts.count, "one sign-in per user at a time")
        clock.advance(by: 30)
        var started: [(MultiFactorResolver, PhoneMultiFactorAssertion)] = []
        started.reserveCapacity(count)
        for _ in 0..<count {
            started.append(try await startSignIn())
        }
        return started
    }

    /// The next user's first factor and code, and the assertion with the code the text carried.
    private func startSignIn() async throws -> (MultiFactorResolver, PhoneMultiFactorAssertion) {
        let account = accounts[next]
        next = next + 1 == accounts.count ? 0 : next + 1
        let resolver: MultiFactorResolver
        do {
            _ = try await service.signIn(account.identity)
            fatalError("the user has a second factor")
        } catch {
            resolver = error.resolver!
        }
        let id = try await provider.verifyPhoneNumber(with: resolver.hints[0], multiFactorSession: resolver.session)
        let credential = provider.credential(withVerificationID: id, verificationCode: sender.code(sentTo: account.phoneNumber))
        return (resolver, PhoneMultiFactorGenerator.assertion(with: credential))
    }
}

nonisolated(unsafe) var phoneMemoryFixture: PhoneSignInFixture!
nonisolated(unsafe) var phoneSQLiteFixture: PhoneSignInFixture!
nonisolated(unsafe) var sqliteSecondFixture: SignInFixture!

/// Users on the SQLite store of the phone benchmarks and of the TOTP second step beside them.
let sqliteUsers = 1_000

/// A thousand users with a phone factor in a fresh SQLite store, for both SQLite phone benchmarks.
func makePhoneSQLiteFixture() async throws -> PhoneSignInFixture {
    let key = try makeSQLiteDirectory()
    let fixture = try await PhoneSignInFixture(store: openSQLiteStore(key: key), users: sqliteUsers)
    try await fixture.enroll()
    return fixture
}

func registerPhoneSignInBenchmarks() {
    // Batches of a thousand and ten thousand users, as the TOTP in-memory benchmarks.
    let batched = Benchmark.Configuration(scalingFactor: .kilo)
    Benchmark("otpkit.enrollment.phone.signin.memory", configuration: batched) { benchmark in
        for _ in benchmark.scaledIterations {
            try await phoneMemoryFixture.signIn()
        }
    } setup: {
        phoneMemoryFixture = try PhoneSignInFixture(store: InMemoryAuthStore(), users: 10_000)
        try await phoneMemoryFixture.enroll()
    }

    // The completion alone (`resolveSignIn`: the code's digests, the verification read, one store
    // call that spends the code and stores the session), after the iteration's thousand first
    // steps and sends: the figure to set beside `otpkit.enrollment.signin.memory.second`.
    Benchmark("otpkit.enrollment.phone.signin.memory.second", configuration: batched) { benchmark in
        let started = try await phoneMemoryFixture.startSignIns(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for (resolver, assertion) in started {
            _ = try await resolver.resolveSignIn(with: assertion)
        }
        benchmark.stopMeasurement()
    } setup: {
        phoneMemoryFixture = try PhoneSignInFixture(store: InMemoryAuthStore(), users: 10_000)
        try await phoneMemoryFixture.enroll()
    }

    // SQLite (WAL, synchronous=FULL): one sign-in per iteration, as `otpkit.enrollment.signin.sqlite`,
    // among a thousand users.
    Benchmark("otpkit.enrollment.phone.signin.sqlite") { _ in
        try await phoneSQLiteFixture.signIn()
    } setup: {
        phoneSQLiteFixture = try await makePhoneSQLiteFixture()
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }

    // The completion alone on SQLite: each iteration's first step and send outside the measurement.
    Benchmark("otpkit.enrollment.phone.signin.sqlite.second") { benchmark in
        let started = try await phoneSQLiteFixture.startSignIns(1)
        benchmark.startMeasurement()
        for (resolver, assertion) in started {
            _ = try await resolver.resolveSignIn(with: assertion)
        }
        benchmark.stopMeasurement()
    } setup: {
        phoneSQLiteFixture = try await makePhoneSQLiteFixture()
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }

    // The TOTP second step on SQLite, measured the same way among as many users, for the ratio.
    Benchmark("otpkit.enrollment.signin.sqlite.second") { benchmark in
        let started = try await sqliteSecondFixture.startSignIns(1)
        benchmark.startMeasurement()
        for (resolver, assertion) in started {
            _ = try await resolver.resolveSignIn(with: assertion)
        }
        benchmark.stopMeasurement()
    } setup: {
        let key = try makeSQLiteDirectory()
        sqliteSecondFixture = try await SignInFixture(store: openSQLiteStore(key: key), users: sqliteUsers)
        try await sqliteSecondFixture.enroll()
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }
}
