import OTPAuthentication
import OTPAuthenticationSQLite
import OTPAuthenticationTestSupport
import OTPSealing
import Testing

/// Group commit: concurrent writes share commits, each answered only once its commit is durable;
/// a failed commit fails exactly the writes it held; a refusal inside a batch fails nobody else.
@Suite("SQLite store: group commit")
struct GroupCommitTests {
    static let writes = 200

    static func account(_ index: Int, email: String) -> AccountRecord {
        AccountRecord(id: "account-\(index)", email: email, createdAt: 1_800_000_000)
    }

    @Test("concurrent writes share commits, and every acknowledged write is in the file after reopening")
    func sharedCommits() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let before = store.committedTransactions
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<Self.writes {
                group.addTask { _ = try await store.recordFailure(key: "key-\(index)", at: 1_800_000_000, limit: 5, lockout: 300) }
            }
            try await group.waitForAll()
        }
        let commits = store.committedTransactions - before
        #expect(commits >= 1 && commits < Self.writes, "\(Self.writes) writes took \(commits) commits")
        try await store.close()

        // With group commit off, the same burst takes a commit per write.
        let alone = try await SQLiteAuthStore.open(
            path: database.path, sealer: SecretSealer(current: database.key), options: .init(maximumOperationsPerCommit: 1))
        let start = alone.committedTransactions
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<Self.writes {
                group.addTask { _ = try await alone.recordFailure(key: "key-\(index)", at: 1_800_000_000, limit: 5, lockout: 300) }
            }
            try await group.waitForAll()
        }
        #expect(alone.committedTransactions - start == Self.writes)
        try await alone.close()

        let reopened = try await database.open()
        for index in 0..<Self.writes {
            #expect(try await reopened.failureCounter(key: "key-\(index)").consecutiveFailures == 2)
        }
        try await reopened.close()
    }

    @Test("a failed commit fails each write it held with the store's error, and none of them is in the file")
    func failedBatch() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        store.injectCommitFailure()
        let outcomes = await withTaskGroup(of: (Int, SQLiteAuthStoreError?).self) { group in
            for index in 0..<Self.writes {
                group.addTask {
                    do throws(SQLiteAuthStoreError) {
                        _ = try await store.recordFailure(key: "key-\(index)", at: 1_800_000_000, limit: 5, lockout: 300)
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            return await group.reduce(into: [(Int, SQLiteAuthStoreError?)]()) { $0.append($1) }
        }
        let failed = Set(outcomes.filter { $0.1 != nil }.map(\.0))
        #expect(!failed.isEmpty)
        for (_, error) in outcomes {
            if let error { #expect("\(error)".contains("the commit failed"), "\(error)") }
        }
        try await store.close()

        let reopened = try await database.open()
        for index in 0..<Self.writes {
            let failures = try await reopened.failureCounter(key: "key-\(index)").consecutiveFailures
            #expect(failures == (failed.contains(index) ? 0 : 1), "write \(index)")
        }
        // The store goes on after a failed batch.
        #expect(try await reopened.recordFailure(key: "after", at: 1_800_000_000, limit: 5, lockout: 300).consecutiveFailures == 1)
        try await reopened.close()
    }

    @Test("a failed commit fails each wrong code of a sign-in it held, and none of them is counted")
    func failedSignInFailureBatch() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let credentials = (0..<64).map { index in
            PendingSignInRecord(id: "credential-\(index)", userID: "user-\(index)", firstFactorProvider: "password", createdAt: 100, expiresAt: 400)
        }
        store.injectCommitFailure()
        let outcomes = await withTaskGroup(of: (Int, Result<SignInFailure, SQLiteAuthStoreError>).self) { group in
            for (index, credential) in credentials.enumerated() {
                group.addTask {
                    do throws(SQLiteAuthStoreError) {
                        return (
                            index,
                            .success(
                                try await store.recordSignInFailure(
                                    credential: credential, failureKey: "factor-\(index)", at: 200, limit: 5, lockout: 60))
                        )
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<SignInFailure, SQLiteAuthStoreError>]()) { $0[$1.0] = $1.1 }
        }
        try await store.close()

        let reopened = try await database.open()
        var failed = 0
        for index in credentials.indices {
            let counter = try await reopened.failureCounter(key: "factor-\(index)")
            switch outcomes[index] {
            case .success(let outcome):
                #expect(outcome == .counted(FailureCounter(consecutiveFailures: 1, lockedUntil: nil)), "wrong code \(index)")
                #expect(counter.consecutiveFailures == 1, "wrong code \(index), answered as counted")
            case .failure(let error):
                failed += 1
                #expect("\(error)".contains("the commit failed"), "\(error)")
                #expect(counter == .zero, "wrong code \(index), failed")
            case nil:
                Issue.record("no outcome for wrong code \(index)")
            }
            #expect(try await !reopened.isPendingSignInSpent(credentials[index]), "credential \(index)")
        }
        #expect(failed >= 1)
        try await reopened.close()
    }

    @Test("writes refused inside a batch (an address taken) leave the others' writes in it")
    func refusalInsideBatch() async throws {
        try await withStore { store in
            let outcomes = try await withThrowingTaskGroup(of: (Int, AccountInsertion).self) { group in
                for index in 0..<100 {
                    // Even indexes all want one address; odd ones each have their own.
                    let email = index.isMultiple(of: 2) ? "shared@example.com" : "user\(index)@example.com"
                    group.addTask { (index, try await store.insertAccount(Self.account(index, email: email))) }
                }
                return try await group.reduce(into: [Int: AccountInsertion]()) { $0[$1.0] = $1.1 }
            }
            let shared = outcomes.filter { $0.key.isMultiple(of: 2) }
            #expect(shared.values.filter { $0 == .inserted }.count == 1)
            #expect(shared.values.filter { $0 == .emailAlreadyInUse }.count == 49)
            for index in stride(from: 1, to: 100, by: 2) {
                #expect(outcomes[index] == .inserted)
                #expect(try await store.account(id: "account-\(index)")?.email == "user\(index)@example.com")
            }
        }
    }

    @Test(
        "a batch of sign-in completions that SQLite refuses (a trigger on one session) fails as a whole and writes nothing; writes that shared its transaction fail with it or are kept"
    )
    func failedSignInBatch() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        try await RawDatabase.with(database.path) { connection in
            _ = try await connection.query(
                """
                CREATE TRIGGER refuse_session BEFORE INSERT ON sessions
                WHEN NEW.id = '\(AuthStoreConformance.refusedSessionID)'
                BEGIN SELECT RAISE(ROLLBACK, 'refused by the test'); END
                """)
        }
        // Other writes share the transaction the refused set is in: accounts inserted, eight at a
        // time, until the completions are over. A set runs without a savepoint, and this trigger
        // rolls back the whole transaction as an I/O error would, so each of those writes fails
        // with the set or is in the file.
        let inserting = Task {
            var insertions: [Int: Bool] = [:]
            while !Task.isCancelled {
                let next = insertions.count
                await withTaskGroup(of: (Int, Bool).self) { group in
                    for index in next..<next + 8 {
                        group.addTask {
                            (index, (try? await store.insertAccount(Self.account(index, email: "u\(index)@example.com"))) == .inserted)
                        }
                    }
                    for await (index, inserted) in group { insertions[index] = inserted }
                }
            }
            return insertions
        }
        #expect(try await AuthStoreConformance.failedSignInBatch(on: store) >= 1)
        inserting.cancel()
        let insertions = await inserting.value
        for (index, inserted) in insertions {
            #expect((try await store.account(id: "account-\(index)") != nil) == inserted, "account \(index), inserted: \(inserted)")
        }
        // The store goes on after a failed batch.
        #expect(try await store.recordFailure(key: "after", at: 1_800_000_000, limit: 5, lockout: 300).consecutiveFailures == 1)
        try await store.close()
    }
}
