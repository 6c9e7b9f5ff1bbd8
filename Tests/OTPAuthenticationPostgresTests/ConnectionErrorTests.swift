import Foundation
import OTPAuthentication
import OTPAuthenticationPostgres
import OTPPostgresTestServer
import OTPSealing
import PostgresNIO
import Testing

@Suite("Postgres: configuration and connection errors")
struct ConnectionErrorTests {
    static let password = "s3cret-Pa55word"

    static func sealer() throws -> SecretSealer {
        try SecretSealer(current: SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }))
    }

    static func openError(
        url: String, environment: [String: String] = [:], options: PostgresAuthStore.Options = .init()
    ) async throws -> PostgresAuthStoreError {
        let sealer = try sealer()
        do throws(PostgresAuthStoreError) {
            let store = try await PostgresAuthStore.open(url: url, environment: environment, sealer: sealer, options: options)
            await store.close()
        } catch {
            return error
        }
        throw TestServer.Unavailable(description: "opening \(url.replacingOccurrences(of: password, with: "…")) succeeded")
    }

    @Test(
        "a bad URL is refused with what is wrong, never the password",
        arguments: [
            ("mysql://user:\(password)@localhost/db", "postgres://"),
            ("postgres://user:\(password)@localhost:port5432/db", "port"),
            ("postgres://user:\(password)@localhost:70000/db", "port"),
            ("postgres://user:\(password)@localhost/db?sslmode=sometimes", "sslmode"),
            ("postgres://user:\(password)%zz@localhost/db", "password has a malformed percent escape"),
            ("postgres://user:\(password)@localhost/db?frobnicate=1", "unknown parameter frobnicate"),
            ("postgres://user:\(password)@a,b/db", "several hosts"),
            ("postgres://user:\(password)@[::1/db", "IPv6"),
            // A / or ? in the password cuts the URL short: read on, its pieces would become the
            // port, the database (and so the server's description) or a parameter's name.
            ("postgres://user:12345/\(password)@localhost/db", "percent-encode"),
            ("postgres://user:pa?\(password)@localhost/db", "percent-encode"),
        ])
    func badURL(_ url: String, expected: String) async throws {
        let error = try await Self.openError(url: url)
        guard case .invalidURL = error else {
            Issue.record("expected invalidURL, got \(error)")
            return
        }
        #expect(error.description.contains(expected), "\(error)")
        #expect(!error.description.contains(Self.password))
    }

    @Test("libpq's variables give what a URL leaves out; what the URL says wins")
    func environmentFillsTheURL() async throws {
        try await TestDatabase.withFresh { database in
            let (directory, port, user) = try TestServer.settings()
            let store = try await PostgresAuthStore.open(
                url: "postgres:///\(database.database)?options=-c%20search_path%3D\(database.name)",
                environment: ["PGHOST": directory, "PGPORT": "\(port)", "PGUSER": user, "PGDATABASE": "otpkit_no_such_database"],
                sealer: Self.sealer())
            #expect(store.server == "\(user)@\(directory)/.s.PGSQL.\(port)/\(database.database)")
            try await enroll(store)
            await store.close()
        }
    }

    @Test("a value that cannot be used is named where it came from: the URL or the variable")
    func badValueSource() async throws {
        let port = "port port5432 is not a number from 1 to 65535"
        #expect(
            try await Self.openError(url: "postgres://u@localhost/db", environment: ["PGPORT": "port5432"])
                == .invalidEnvironment(variable: "PGPORT", reason: port))
        #expect(try await Self.openError(url: "postgres://u@localhost:port5432/db", environment: ["PGPORT": "5432"]) == .invalidURL(reason: port))
        let mode = try await Self.openError(url: "postgres://u@localhost/db", environment: ["PGSSLMODE": "sometimes"])
        guard case .invalidEnvironment("PGSSLMODE", _) = mode else {
            Issue.record("expected invalidEnvironment(PGSSLMODE), got \(mode)")
            return
        }
        #expect(
            try await Self.openError(url: "postgres:///db", environment: ["PGHOST": "a,b"])
                == .invalidEnvironment(variable: "PGHOST", reason: "it names several hosts; give one"))
    }

    @Test("a server out of reach is reported as unreachable, without the password")
    func unreachable() async throws {
        // A port nothing listens on: bound, then closed.
        let error = try await Self.openError(url: "postgres://someone:\(Self.password)@127.0.0.1:1/db?sslmode=disable")
        guard case .unreachable(let server, _) = error else {
            Issue.record("expected unreachable, got \(error)")
            return
        }
        #expect(server == "someone@127.0.0.1:1/db")
        #expect(!error.description.contains(Self.password))
    }

    @Test("a wrong password is refused as an authentication failure, without the password")
    func wrongPassword() async throws {
        let port = try TestServer.settings().port
        let error = try await Self.openError(url: "postgres://otpkit_password:\(Self.password)@127.0.0.1:\(port)/otpkit_test?sslmode=disable")
        guard case .authenticationFailed = error else {
            Issue.record("expected authenticationFailed, got \(error)")
            return
        }
        #expect(error.description.contains("otpkit_password@127.0.0.1"))
        #expect(!error.description.contains(Self.password))
    }

    @Test("a database that does not exist is named")
    func missingDatabase() async throws {
        let (directory, port, user) = try TestServer.settings()
        let socket = directory.replacingOccurrences(of: "/", with: "%2F")
        let error = try await Self.openError(url: "postgresql://\(user)@\(socket):\(port)/otpkit_no_such_database")
        #expect(
            error == .databaseNotFound(server: "\(user)@\(directory)/.s.PGSQL.\(port)/otpkit_no_such_database", database: "otpkit_no_such_database"))
    }

    @Test("sslmode=require against a server without TLS fails as a TLS error")
    func tlsRequired() async throws {
        let port = try TestServer.settings().port
        let error = try await Self.openError(url: "postgres://postgres@127.0.0.1:\(port)/otpkit_test?sslmode=require")
        guard case .tlsFailed = error else {
            Issue.record("expected tlsFailed, got \(error)")
            return
        }
    }

    @Test("a URL over TCP with the right password opens the store")
    func urlOverTCP() async throws {
        let database = try await TestDatabase.create()
        defer { Task { await database.drop() } }
        try await database.grant(to: "otpkit_password")
        let port = try TestServer.settings().port
        let store = try await PostgresAuthStore.open(
            url:
                "postgres://otpkit_password:otpkit-test-password@127.0.0.1:\(port)/\(database.database)?sslmode=prefer&options=-c%20search_path%3D\(database.name)",
            sealer: Self.sealer())
        #expect(store.server == "otpkit_password@127.0.0.1:\(port)/\(database.database)")
        try await enroll(store)
        await store.close()
    }

    @Test("every pooled connection busy: a caller waits for the bound, then gets poolExhausted")
    func poolExhausted() async throws {
        try await withStore { _, database in
            let store = try await database.open(poolSize: 1, options: .init(connectionWait: .milliseconds(300)))
            defer { Task { await store.close() } }
            // Every step before the measured one may itself outlast the short wait on a loaded
            // machine (the tests share two cores), so those steps retry.
            let credential = PendingSignInRecord(id: "held", userID: "u", firstFactorProvider: "password", createdAt: 0, expiresAt: .max)
            // A transaction beside the store spends the credential without committing; the store's
            // only connection, spending it too, then waits for it.
            let admin = try await database.connect()
            try await admin.query("BEGIN", logger: TestServer.logger)
            try await admin.query("INSERT INTO spent_sign_ins (expires_at, id) VALUES (\(Int64.max), 'held')", logger: TestServer.logger)
            let blocked = Task {
                while true {
                    do {
                        return try await store.spendPendingSignIn(credential)
                    } catch PostgresAuthStoreError.poolExhausted(_, _) {
                        continue
                    }
                }
            }
            try await Self.waitForLockWaiter(admin)
            let clock = ContinuousClock()
            let start = clock.now
            let error = await #expect(throws: PostgresAuthStoreError.self) { try await store.factor(id: "any") }
            let waited = clock.now - start
            guard case .poolExhausted(_, let milliseconds) = error else {
                Issue.record("expected poolExhausted, got \(String(describing: error))")
                return
            }
            #expect(milliseconds == 300)
            // At least the bound; the upper limit only shows it did not wait for the row's lock.
            #expect(waited >= .milliseconds(250) && waited < .seconds(60), "waited \(waited)")
            try await admin.query("ROLLBACK", logger: TestServer.logger)
            try await admin.close()
            #expect(try await blocked.value == true, "the waiting operation completes once the row is free, and spends it")
        }
    }

    /// Returns once another session waits for a lock `admin` holds, so the store's only connection
    /// is known to be busy; fails after 60 seconds.
    static func waitForLockWaiter(_ admin: PostgresConnection) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let rows = try await admin.query(
                "SELECT count(*) AS waiting FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))",
                logger: TestServer.logger)
            if let waiting = try await rows.collect().first?.makeRandomAccess()["waiting"].decode(Int.self), waiting > 0 { return }
            try #require(ContinuousClock.now < deadline, "the store's operation never waited for the locked row")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("reads are retried when the server ends the store's connections")
    func retriedAfterTermination() async throws {
        // A database of its own: the test ends every other connection to it.
        try await withStore(ownDatabase: true) { store, database in
            let factor = try await enroll(store)
            try await database.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            #expect(try await store.factor(id: factor.id)?.id == factor.id)
            #expect(try await store.factors(userID: factor.userID).count == 1)
        }
    }

    @Test("connections the server ends again and again under a stream of operations: each operation ends, done or with a typed error")
    func connectionsEndedUnderLoad() async throws {
        // A database of its own: the test ends every other connection to it.
        try await withStore(ownDatabase: true) { store, database in
            let factor = try await enroll(store)
            let tally = Tally()
            let clock = ContinuousClock()
            let streamEnds = clock.now + .seconds(3)
            // Unstructured, so that an operation that never ends fails the test instead of hanging it.
            for worker in 0..<8 {
                Task {
                    while clock.now < streamEnds {
                        do {
                            _ = try await store.factor(id: factor.id)
                            _ = try await store.recordFailure(key: "worker-\(worker)", at: 0, limit: 1_000_000, lockout: 1)
                            await tally.count(.done)
                        } catch let error as PostgresAuthStoreError {
                            await tally.count(.failed)
                            if case .connectionLost = error {} else { await tally.count(.unexpected("\(error)")) }
                        } catch {
                            await tally.count(.unexpected("\(error)"))
                        }
                    }
                    await tally.count(.finished)
                }
            }
            let killer = try await database.connect()
            var terminations = 0
            while clock.now < streamEnds {
                let ended = try await killer.query(
                    "SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                    logger: TestServer.logger
                ).collect()
                terminations += try ended.first?.makeRandomAccess()["n"].decode(Int.self) ?? 0
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...5)))
            }
            try await killer.close()
            let deadline = clock.now + .seconds(60)
            while await tally.finished < 8, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let (done, failed, unexpected, finished) = await (tally.done, tally.failed, tally.unexpected, tally.finished)
            print("connections ended under load: \(terminations) backends ended, \(done) operations done, \(failed) failed typed")
            #expect(finished == 8, "\(8 - finished) of 8 workers are still waiting for an operation 60 s after the stream ended")
            #expect(unexpected.isEmpty, "failures other than a lost connection: \(unexpected.prefix(3))")
            #expect(terminations > 0 && done > 0)
            #expect(try await store.factor(id: factor.id)?.id == factor.id, "the store after the stream")
        }
    }

    /// What the workers of ``connectionsEndedUnderLoad()`` saw.
    private actor Tally {
        enum Event {
            case done, failed, finished
            case unexpected(String)
        }
        var done = 0
        var failed = 0
        var finished = 0
        var unexpected: [String] = []

        func count(_ event: Event) {
            switch event {
            case .done: done += 1
            case .failed: failed += 1
            case .finished: finished += 1
            case .unexpected(let description): unexpected.append(description)
            }
        }
    }

    @Test("a closed store refuses operations")
    func closed() async throws {
        try await withStore { store, _ in
            await store.close()
            await #expect(throws: PostgresAuthStoreError.closed(server: store.server)) { try await store.factor(id: "x") }
        }
    }
}
