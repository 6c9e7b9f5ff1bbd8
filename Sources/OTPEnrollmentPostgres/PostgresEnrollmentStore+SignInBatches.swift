internal import OTPDurableStore
internal import OTPEnrollment
internal import PostgresNIO

/// The steps of every sign-in, in sets: the first step's read, and the completion's or the wrong
/// code's write.
///
/// Each statement is a round trip to the server, and PostgreSQL spends about as long on a small
/// statement as on the same statement over many rows: concurrent sign-ins therefore go through
/// `OperationBatcher`s. A set of first steps is one read over all of its users (arrays through
/// `= ANY`); a set of completions or of wrong codes is one call of a function the migrations
/// install, which locks what the set decides on, in one order every set keeps, and decides and
/// applies each request in turn (``completeSignInsFunction``, ``recordSignInFailuresFunction``),
/// so the decision holds under `READ COMMITTED` with any number of servers.
extension PostgresEnrollmentStore {
    /// Answers `requests` (user ids) together (``signInFactors(userID:)``): one result each, in
    /// order; all fail together only when the read does.
    func startSignIns(_ requests: [String]) async -> [Result<SignInFactors, PostgresEnrollmentStoreError>] {
        let sealer = self.sealer
        var binds = PostgresBindings()
        binds.append(SignInStartBatch.users(of: requests))
        let query = PostgresQuery(unsafeSQL: Self.startSignInsQuery, binds: binds)
        do throws(PostgresEnrollmentStoreError) {
            let rows = try await reading("starting sign-ins") { connection in try await connection.query(query) }
            var totp: [FactorRecord] = []
            var phone: [PhoneFactorRecord] = []
            for row in rows {
                let stored = PostgresStoredRow(row: row)
                if try stored.text("kind", of: "a sign-in's factor") == "factor" {
                    totp.append(try stored.factorRecord(sealer))
                } else {
                    phone.append(try stored.phoneFactorRecord())
                }
            }
            return SignInStartBatch(requests, totp: totp, phone: phone).factors.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The factors of the users `$1`, both kinds tagged as in ``pendingSignInContextQuery``.
    static let startSignInsQuery = StoredColumns.taggedUnion(
        [
            .init(kind: "factor", columns: StoredColumns.factor, from: "factors WHERE user_id = ANY($1)"),
            .init(kind: "phone", columns: StoredColumns.phoneFactor, from: "phone_factors WHERE user_id = ANY($1)"),
        ], orderedBy: "kind, enrolled_at, id", null: PostgresEnrollmentStore.typedNull)

    /// Completes `requests` together (``completeSignIn(credential:factorID:step:at:session:maximumSessionsPerUser:)``)
    /// in one call of ``completeSignInsFunction``: one result each, in order; all fail together
    /// only when the transaction does.
    func completeSignIns(_ requests: [SignInCompletionRequest]) async -> [Result<SignInCompletion, PostgresEnrollmentStoreError>] {
        let credentials = requests.map(\.credential)
        let sessions = requests.map(\.session)
        // postgres-nio binds no array of optionals: whether a session has a second factor goes
        // beside the (then empty) id.
        let query: PostgresQuery = """
            SELECT request AS seq, outcome, detail, NULL::bigint AS failures FROM otpkit_complete_sign_ins(
                \(credentials.map(\.id)), \(credentials.map(\.userID)), \(credentials.map(\.expiresAt)), \(requests.map(\.time)),
                \(requests.map(\.factorID)), \(requests.map(\.step)), \(requests.map { Int64(max(1, $0.maximumSessionsPerUser)) }),
                \(sessions.map(\.id)), \(sessions.map(\.userID)), \(sessions.map(\.firstFactorProvider)), \(sessions.map(\.authenticatedAt)),
                \(sessions.map { $0.secondFactorEnrollmentID ?? "" }), \(sessions.map { $0.secondFactorEnrollmentID != nil }),
                \(sessions.map(\.lastUsedAt)), \(sessions.map(\.expiresAt)))
            """
        return await applySet(query, count: requests.count, operation: "completing sign-ins") { outcome, detail, _ in
            SignInCompletion(storedOutcome: outcome, detail: detail)
        }
    }

    /// Counts `requests` together (``recordSignInFailure(credential:failureKey:at:limit:lockout:)``)
    /// in one call of ``recordSignInFailuresFunction``: one result each, in order; all fail
    /// together only when the transaction does.
    func recordSignInFailures(_ requests: [SignInFailureRequest]) async -> [Result<SignInFailure, PostgresEnrollmentStoreError>] {
        let credentials = requests.map(\.credential)
        let query: PostgresQuery = """
            SELECT request AS seq, outcome, detail, failures FROM otpkit_record_sign_in_failures(
                \(credentials.map(\.id)), \(credentials.map(\.expiresAt)), \(requests.map(\.time)),
                \(requests.map(\.failureKey)), \(requests.map { Int64($0.limit) }), \(requests.map(\.lockout)))
            """
        return await applySet(query, count: requests.count, operation: "counting wrong codes") { outcome, detail, failures in
            SignInFailure(storedOutcome: outcome, detail: detail, failures: failures)
        }
    }

    /// Runs `query`, a call of a function that decides and applies a set of `count` sign-in
    /// steps, in a transaction of its own, and reads its outcomes: one result per request, in
    /// order; all fail together only when the transaction does.
    ///
    /// Three round trips (`BEGIN`, the call, `COMMIT`, which alone answers once the commit is
    /// durable) where deciding in Swift took six to eight, each a wake-up of the service and of
    /// the server's backend, with a lock held across all of them.
    private func applySet<Outcome: Sendable>(
        _ query: PostgresQuery, count: Int, operation: String,
        outcome: @escaping @Sendable (_ outcome: String, _ detail: Int64?, _ failures: Int64?) -> Outcome?
    ) async -> [Result<Outcome, PostgresEnrollmentStoreError>] {
        do throws(PostgresEnrollmentStoreError) {
            let outcomes = try await transaction(operation) { connection in
                try await connection.query(query).map { PostgresStoredRow(row: $0) }.signInOutcomes(
                    count: count, invalid: { .invalidRecord(recordID: "a sign-in outcome", detail: $0) }, outcome)
            }
            return outcomes.map { .success($0) }
        } catch {
            return (0..<count).map { _ in .failure(error) }
        }
    }
}
