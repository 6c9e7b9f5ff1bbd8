public import OTPAuthentication

extension AuthStoreConformance {
    /// The id of the session that ``failedSignInBatch(on:completions:)`` expects its store to refuse to store.
    public static let refusedSessionID = "session-refused-by-the-database"

    /// Concurrent sign-in completions, one of which the database refuses to store (a test installs
    /// a trigger that fails the insertion of the session ``refusedSessionID``): that completion
    /// fails, and so may those decided together with it; every completion either succeeded, with
    /// all its writes there, or failed with an error, with none of them there.
    ///
    /// Returns how many completions failed (at least one).
    @discardableResult
    public static func failedSignInBatch(on store: any AuthStore, completions: Int = 64) async throws -> Int {
        var signIns: [(factor: FactorRecord, credential: PendingSignInRecord, session: SessionRecord)] = []
        for index in 0..<completions {
            let factor = try await enrolledFactor(in: store, step: 5)
            var session = signInSession(of: factor)
            if index == completions / 2 { session.id = refusedSessionID }
            signIns.append((factor, pendingSignIn(of: factor.userID), session))
        }
        let factors = signIns.map(\.factor)
        let credentials = signIns.map(\.credential)
        let sessions = signIns.map(\.session)
        let outcomes = await withTaskGroup(of: (Int, Result<SignInCompletion, any Error>).self) { group in
            for index in 0..<completions {
                group.addTask {
                    do {
                        return (
                            index,
                            .success(
                                try await store.completeSignIn(
                                    credential: credentials[index], factorID: factors[index].id, step: 6, at: 200, session: sessions[index],
                                    maximumSessionsPerUser: 10))
                        )
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<SignInCompletion, any Error>]()) { $0[$1.0] = $1.1 }
        }
        var failed = 0
        for index in 0..<completions {
            let what = "completion \(index) of \(completions), the refused session's at \(completions / 2)"
            let step = try await store.factor(id: factors[index].id)?.lastAcceptedStep
            let spent = try await store.isPendingSignInSpent(credentials[index])
            let session = try await store.session(id: sessions[index].id)
            switch outcomes[index] {
            case .success(let completion):
                try checkEqual(completion, .completed, "the outcome of \(what)")
                try checkEqual(step, 6, "the step of \(what), which succeeded")
                try checkEqual(spent, true, "the credential of \(what), which succeeded")
                try checkEqual(session, sessions[index], "the session of \(what), which succeeded")
            case .failure:
                failed += 1
                try checkEqual(step, 5, "the step of \(what), which failed")
                try checkEqual(spent, false, "the credential of \(what), which failed")
                try checkEqual(session, nil, "the session of \(what), which failed")
            case nil:
                try check(false, "an outcome of \(what)")
            }
        }
        if case .success = outcomes[completions / 2] {
            try check(false, "the completion whose session the database refuses failed")
        }
        return failed
    }
}
