import Benchmark
import Foundation
import Logging
import OTPAuthentication
import OTPAuthenticationSQLite

nonisolated(unsafe) var passwordService: MultiFactorService!

/// Password sign-ins at the production hash parameters on SQLite, in one run: a wrong password and
/// an unknown address must take the same time (the answer's timing must not tell which addresses
/// have accounts), and the right password for scale. The failure limit is lifted so that every
/// iteration hashes rather than meeting a lock.
func registerPasswordBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock], warmupIterations: 2, maxDuration: .seconds(10), maxIterations: 30)
    let attempts: [(String, String, String)] = [
        ("wrong", "ada@example.com", "not the password"),
        ("unknown", "nobody@example.com", "not the password"),
        ("right", "ada@example.com", "correct horse battery"),
    ]
    for (name, email, password) in attempts {
        Benchmark("otpkit.enrollment.password.\(name)", configuration: configuration) { _ in
            do {
                blackHole(try await passwordService.signIn(withEmail: email, password: password))
            } catch let error as AuthError where error.code == .invalidCredential {
                blackHole(error)
            }
        } setup: {
            let key = try makeSQLiteDirectory()
            var logger = Logger(label: "OTPKitBenchmarks")
            logger.logLevel = .critical
            passwordService = try MultiFactorService(
                configuration: MultiFactorConfiguration(maximumConsecutiveFailures: .max), store: try await openSQLiteStore(key: key), logger: logger)
            _ = try await passwordService.createUser(withEmail: "ada@example.com", password: "correct horse battery")
        } teardown: {
            try? FileManager.default.removeItem(at: sqliteDirectory)
        }
    }
}
