internal import OTPDurableStore
internal import OTPAuthentication
internal import PostgresNIO

/// The steps of every sign-in, in sets: the first step's read, and the completion's or the wrong
/// code's write.
///
/// Each statement is a round trip to the server, and PostgreSQL spends about as long on a small
/// statement as on the same statement over many rows: concurrent sign-ins therefore go through
/// `OperationBatcher`s, and a batch's reads and writes are each one statement over all of its
/// sign-ins (arrays through `unnest` and `= ANY`), in one transaction. What a batch reads to
/// decide it locks (`FOR UPDATE`, or, for a credential, which has no row until it is spent, its
/// claim: the row inserted, released at the end unless a completion spent it; in id order, so
/// that two servers with overlapping batches never wait for each other in a circle), so the
/// decision holds under `READ COMMITTED` with any number of servers.
///
/// The statements of completions and wrong codes are functions of the schema (migration 8), which
/// PostgreSQL plans once per connection and keeps: sent as unnamed statements, they were parsed
/// and planned for every set. postgres-nio's prepared statements would keep the plans too, but
/// they are written to the channel without the open-channel check that `Connection.sent(_:)` makes
/// before each statement, and a write lost to a closed channel is never answered.
extension PostgresAuthStore {
    /// Answers `requests` (user ids) together (``signInFactors(userID:)``): one result each, in
    /// order; all fail together only when the read does.
    func startSignIns(_ requests: [String]) async -> [Result<SignInFactors, PostgresAuthStoreError>] {
        let sealer = self.sealer
        var binds = PostgresBindings()
        binds.append(SignInStartBatch.users(of: requests))
        let query = PostgresQuery(unsafeSQL: Self.startSignInsQuery, binds: binds)
        do throws(PostgresAuthStoreError) {
            let rows = try await reading("starting sign-ins") { connection in try await connection.query(query) }
            var totp: [FactorRecord] = []
            var phone: [PhoneFactorRecord] = []
            var passkeys: [PasskeyRecord] = []
            for row in rows {
                let stored = PostgresStoredRow(row: row)
                let tag = try stored.text("kind", of: "a sign-in's factor")
                switch FactorKind(rawValue: tag) {
                case .totp: totp.append(try stored.factorRecord(sealer))
                case .phone: phone.append(try stored.phoneFactorRecord())
                case .webauthn: passkeys.append(try stored.passkeyRecord())
                case .recoveryCode, nil:
                    throw stored.invalidRecord(recordID: "a sign-in's factor", detail: "a row of kind \(tag), which the query has none of")
                }
            }
            return SignInStartBatch(requests, totp: totp, phone: phone, passkeys: passkeys).factors.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The factors of the users `$1`, both kinds tagged as in ``signInContextsQuery``.
    static let startSignInsQuery = StoredColumns.taggedUnion(
        [
            .init(kind: FactorKind.totp.factorID, columns: StoredColumns.factor, from: "factors WHERE user_id = ANY($1)"),
            .init(kind: FactorKind.phone.factorID, columns: StoredColumns.phoneFactor, from: "phone_factors WHERE user_id = ANY($1)"),
            .init(
                kind: FactorKind.webauthn.factorID, columns: StoredColumns.passkey,
                from: "passkeys WHERE enrollment_id IS NOT NULL AND user_id = ANY($1)"),
        ], orderedBy: "kind, enrolled_at, id, created_at, credential_id", null: PostgresAuthStore.typedNull)

    /// Takes `requests` up together (``pendingSignInContext(_:)``): one context each, in order,
    /// `nil` for a spent credential; all fail together only when the read does.
    func signInContexts(_ requests: [PendingSignInRecord]) async -> [Result<PendingSignInContext?, PostgresAuthStoreError>] {
        let sealer = self.sealer
        let (credentials, users) = SignInContextBatch.keys(of: requests)
        var binds = PostgresBindings()
        binds.append(credentials.map(\.expiresAt))
        binds.append(credentials.map(\.id))
        binds.append(users)
        let query = PostgresQuery(unsafeSQL: Self.signInContextsQuery, binds: binds)
        do throws(PostgresAuthStoreError) {
            let rows = try await reading("reading pending sign-ins") { connection in try await connection.query(query) }
            var spent: Set<String> = []
            var accounts: [AccountRecord] = []
            var identities: [String: [ProviderIdentity]] = [:]
            var totp: [FactorRecord] = []
            var phone: [PhoneFactorRecord] = []
            var passkeys: [PasskeyRecord] = []
            for row in rows {
                let stored = PostgresStoredRow(row: row)
                switch try stored.text("kind", of: "a pending sign-in's row") {
                case "spent": spent.insert(try stored.text("id", of: "a spent sign-in"))
                case "account": accounts.append(try stored.accountRecord())
                case "identity":
                    let accountID = try stored.text("account_id", of: "an identity")
                    identities[accountID, default: []].append(try stored.providerIdentity(of: accountID))
                case let tag:
                    switch FactorKind(rawValue: tag) {
                    case .totp: totp.append(try stored.factorRecord(sealer))
                    case .phone: phone.append(try stored.phoneFactorRecord())
                    case .webauthn: passkeys.append(try stored.passkeyRecord())
                    case .recoveryCode, nil:
                        throw stored.invalidRecord(recordID: "a pending sign-in's row", detail: "a row of kind \(tag), which the query has none of")
                    }
                }
            }
            let factors = SignInStartBatch(requests.map(\.userID), totp: totp, phone: phone, passkeys: passkeys)
            let batch = SignInContextBatch(requests, spent: spent, accounts: accounts, identities: identities, factors: factors)
            return batch.contexts.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// Which of the pending sign-ins (`$1` expiring at, `$2` ids) were spent, and the users `$3`'s
    /// accounts, identities, TOTP and phone factors, in one statement of rows tagged with their
    /// kind (so one snapshot too): factors by enrolment time and id, identities by provider.
    static let signInContextsQuery = StoredColumns.taggedUnion(
        [
            .init(kind: "spent", columns: "id", from: "spent_sign_ins WHERE (expires_at, id) IN (SELECT * FROM unnest($1::int8[], $2::text[]))"),
            .init(kind: "account", columns: StoredColumns.account, from: "accounts WHERE id = ANY($3)"),
            .init(
                kind: "identity", columns: "account_id, \(StoredColumns.providerIdentity)", from: "provider_identities WHERE account_id = ANY($3)"),
            .init(kind: FactorKind.totp.factorID, columns: StoredColumns.factor, from: "factors WHERE user_id = ANY($3)"),
            .init(kind: FactorKind.phone.factorID, columns: StoredColumns.phoneFactor, from: "phone_factors WHERE user_id = ANY($3)"),
            .init(
                kind: FactorKind.webauthn.factorID, columns: StoredColumns.passkey,
                from: "passkeys WHERE enrollment_id IS NOT NULL AND user_id = ANY($3)"),
        ], orderedBy: "kind, enrolled_at, account_id, provider_id, id, created_at, credential_id", null: PostgresAuthStore.typedNull)

    /// Completes `requests` together (``completeSignIn(credential:factorID:step:at:session:maximumSessionsPerUser:)``):
    /// one result each, in order; all fail together only when the transaction does.
    func completeSignIns(_ requests: [SignInCompletionBatch.Request]) async -> [Result<SignInCompletion, PostgresAuthStoreError>] {
        do throws(PostgresAuthStoreError) {
            let batch = try await transaction("completing sign-ins") { connection -> SignInCompletionBatch in
                let rows = try await connection.signInCompletionRows(requests)
                let batch = SignInCompletionBatch(requests, rows: rows)
                try await connection.write(
                    batch, claimed: SignInCompletionBatch.keys(of: requests).credentials.filter { !rows.spentCredentials.contains($0.id) })
                return batch
            }
            return batch.outcomes.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }
}

extension PostgresAuthStore {
    /// Counts `requests` together (``recordSignInFailure(credential:failureKey:at:limit:lockout:)``):
    /// one result each, in order; all fail together only when the transaction does.
    func recordSignInFailures(_ requests: [SignInFailureBatch.Request]) async -> [Result<SignInFailure, PostgresAuthStoreError>] {
        do throws(PostgresAuthStoreError) {
            let batch = try await transaction("counting wrong codes") { connection -> SignInFailureBatch in
                let rows = try await connection.signInFailureRows(requests)
                let batch = SignInFailureBatch(requests, rows: rows)
                try await connection.write(
                    batch, claimed: SignInFailureBatch.keys(of: requests).credentials.filter { !rows.spentCredentials.contains($0.id) })
                return batch
            }
            return batch.outcomes.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }
}

extension PostgresAuthStore.Connection {
    /// The spent credentials and the failure counters `requests` name, claimed and locked until
    /// the transaction ends (the claimed credentials are released by
    /// ``write(_:claimed:)-(SignInFailureBatch)``), through `otpkit_sign_in_failure_rows`
    /// (migration 8), one statement: the claims first, then the counters, each in key order, as
    /// completions claim their credentials before they lock their factors. A counter is computed
    /// here and written back, so it must be locked, and a row that does not exist yet cannot be:
    /// each counter is inserted at zero or, when it exists, "updated" to itself, which locks it
    /// and returns its latest committed value, even one another server wrote after the
    /// statement's snapshot.
    fileprivate func signInFailureRows(_ requests: [SignInFailureBatch.Request]) async throws -> SignInFailureBatch.Rows {
        let (credentials, failureKeys) = SignInFailureBatch.keys(of: requests)
        var rows = SignInFailureBatch.Rows()
        rows.spentCredentials = Set(credentials.map(\.id))
        let statement: PostgresQuery = """
            SELECT * FROM otpkit_sign_in_failure_rows(\(credentials.map(\.expiresAt)), \(credentials.map(\.id)), \(failureKeys))
            """
        for row in try await query(statement) {
            let stored = PostgresStoredRow(row: row)
            let key = try stored.text("key", of: "?")
            if try stored.text("kind", of: key) == "claimed" {
                rows.spentCredentials.remove(key)
            } else {
                rows.failures[key] = try stored.failureCounter(key: key)
            }
        }
        return rows
    }

    /// What `batch` decided to write, and the release of the credentials its rows claimed,
    /// through `otpkit_count_sign_in_failures_at` (migration 9), one statement. postgres-nio binds
    /// no array of optionals: whether a counter is locked goes beside the (then zero) time.
    fileprivate func write(_ batch: SignInFailureBatch, claimed: [PendingSignInRecord]) async throws {
        let counters = batch.counters
        let audit = batch.auditEvents
        try await execute(
            """
            SELECT otpkit_count_sign_in_failures_at(
                \(claimed.map(\.expiresAt)), \(claimed.map(\.id)),
                \(counters.map(\.key)), \(counters.map { Int64($0.counter.consecutiveFailures) }),
                \(counters.map { $0.counter.lockedUntil != nil }), \(counters.map { $0.counter.lockedUntil ?? 0 }),
                \(counters.map(\.countedAt))
            )\(alsoRecording: audit)
            """)
    }

    /// The spent credentials, failure counters and factors `requests` name, through
    /// `otpkit_sign_in_completion_rows` (migration 8), one statement: the credentials claimed,
    /// the factors locked, then the session locks of the requests' users taken (all until the
    /// transaction ends), each in key order, as every set does, so that two servers with
    /// overlapping sets never wait for each other in a circle. `UNION ALL` runs its parts in
    /// order, the claims' `INSERT` included, since the rows read come from it (in another order
    /// two sets could deadlock, which PostgreSQL detects and the store retries, the rolled-back
    /// set having applied nothing). The session locks come before
    /// ``write(_:claimed:)-(SignInCompletionBatch)``, whose single statement can only count the
    /// sessions its snapshot holds: taken in that statement, they would leave a session another
    /// server stored meanwhile out of the count.
    fileprivate func signInCompletionRows(_ requests: [SignInCompletionBatch.Request]) async throws -> SignInCompletionBatch.Rows {
        let (credentials, factorIDs) = SignInCompletionBatch.keys(of: requests)
        let users = Array(Set(requests.map(\.session.userID)))
        var rows = SignInCompletionBatch.Rows()
        rows.spentCredentials = Set(credentials.map(\.id))
        let statement: PostgresQuery = """
            SELECT * FROM otpkit_sign_in_completion_rows(\(credentials.map(\.expiresAt)), \(credentials.map(\.id)), \(factorIDs), \(users))
            """
        for row in try await query(statement) {
            let stored = PostgresStoredRow(row: row)
            switch try stored.text("kind", of: "?") {
            case "claimed":
                rows.spentCredentials.remove(try stored.text("id", of: "?"))
            case "factor":
                let (id, factor) = try stored.completionFactor()
                rows.factors[id] = factor
            case "counter":
                let key = try stored.text("id", of: "?")
                rows.failures[key] = try stored.failureCounter(key: key)
            default:
                break
            }
        }
        return rows
    }

    /// What `batch` decided to write, and the release of the credentials `claimed` that no
    /// completion spent, through `otpkit_complete_sign_ins` (migration 8), one statement of
    /// data-modifying CTEs, which PostgreSQL runs once each. Each has rows of its own (the
    /// releases, steps, counters, new sessions and ended ones), so their order does not matter.
    /// All of them see the statement's snapshot, which holds every session of the batch's users
    /// (their session locks were taken before it) but none of the new ones: of the stored
    /// sessions, each user keeps as many as the new leave room for
    /// (``SignInCompletionBatch/sessionsKept``). postgres-nio binds no array of optionals: whether
    /// a session has a second factor goes beside the (then empty) id.
    fileprivate func write(_ batch: SignInCompletionBatch, claimed: [PendingSignInRecord]) async throws {
        let spent = Set(batch.spentCredentials.map(\.id))
        let released = claimed.filter { !spent.contains($0.id) }
        let steps = batch.acceptedSteps
        let (sessions, storedKept) = batch.sessionsKept
        guard !released.isEmpty || !steps.isEmpty || !sessions.isEmpty else { return }
        // The function of migration 8 stores no session claims: a session a second factor completes
        // never has any, as only a custom token gives them and a custom token asks for no factor.
        try await execute(
            """
            SELECT otpkit_complete_sign_ins(
                \(released.map(\.expiresAt)), \(released.map(\.id)),
                \(steps.map(\.factorID)), \(steps.map(\.step)),
                \(batch.clearedFailures),
                \(sessions.map(\.id)), \(sessions.map(\.userID)), \(sessions.map(\.firstFactorProvider)),
                \(sessions.map(\.authenticatedAt)), \(sessions.map { $0.secondFactorEnrollmentID ?? "" }),
                \(sessions.map { $0.secondFactorEnrollmentID != nil }), \(sessions.map(\.lastUsedAt)), \(sessions.map(\.expiresAt)),
                \(storedKept.map(\.userID)), \(storedKept.map { Int64($0.count) })
            )\(alsoRecording: batch.auditEvents)
            """)
    }
}
