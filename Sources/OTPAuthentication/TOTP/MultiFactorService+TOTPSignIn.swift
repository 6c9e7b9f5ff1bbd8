import OTPCore

extension MultiFactorService {
    /// `mfaSignIn:finalize`: the hot path of a server. Verifies on the prepared key the resolver
    /// carries, then lets one store call check the credential and the lock, record the step with a
    /// compare-and-set, spend the credential and store the session. A wrong code costs one more
    /// store call, which checks the credential and the lock and counts the failure.
    func finalizeTOTPSignIn(_ resolver: MultiFactorResolver, enrollmentID: String, code: String) async throws(AuthError) -> AuthDataResult {
        guard !code.isEmpty else {
            throw AuthError(.missingVerificationCode, "no verification code given: enter the code the authenticator app shows")
        }
        let now = clock.now()
        let hintIndex = resolver.hints.prefix(resolver.verifiers.count).firstIndex { $0.uid == enrollmentID }
        if hintIndex == nil, resolver.hints.contains(where: { $0.uid == enrollmentID }) {
            throw AuthError(
                .multiFactorInfoNotFound,
                "the factor \(enrollmentID) is a phone factor: send it a code with PhoneAuthProvider.verifyPhoneNumber(with:multiFactorSession:) and sign in with PhoneMultiFactorGenerator"
            )
        }
        let verifier =
            if let hintIndex {
                resolver.verifiers[hintIndex]
            } else {
                try await verifier(ofOtherFactor: enrollmentID, resolver: resolver)
            }
        let hint =
            hintIndex.map { resolver.hints[$0] }
            ?? MultiFactorInfo(uid: enrollmentID, displayName: nil, enrollmentTime: 0, factorID: TOTPMultiFactorID)
        let session = try newSession(resolver.identity, at: now, secondFactor: hint)
        let credential = resolver.credential
        let sessionLimit = configuration.maximumSessionsPerUser
        let event = auditEvent(
            .signedIn, userID: credential.userID, factorKind: .totp, factorID: enrollmentID, provider: resolver.identity.provider.rawValue)

        var after = verifier.lastAcceptedStep
        while true {
            let match: TOTPMatch?
            do {
                match = try verifier.totp.verify(code, at: now, window: window, after: after)
            } catch {
                throw await signInFailure(
                    credential, failureKey: enrollmentID, kind: "factor", now: now, reason: "invalid verification code: \(error)")
            }
            guard let match else {
                throw await signInFailure(
                    credential, failureKey: enrollmentID, kind: "factor", now: now,
                    reason: "wrong or already used verification code: enter the code the authenticator app shows now")
            }
            // The store decides: another request (or process) may have accepted this step meanwhile.
            let completion = try await storeCall("completing the sign-in", recording: event) {
                try await store.completeSignIn(
                    credential: credential, factorID: enrollmentID, step: match.step, at: now, session: session,
                    maximumSessionsPerUser: sessionLimit
                )
            }
            switch completion {
            case .completed:
                verifier.noteAccepted(match.step)
            case .stepRejected(let last):
                verifier.noteAccepted(last)
                after = last
                continue
            case .credentialNotFound, .credentialExpired, .locked:
                throw refusal(completion, now: now)
            case .factorNotFound:
                forgetVerifier(enrollmentID)
                throw factorNotFound()
            case .codeRejected, .verificationNotFound, .verificationExpired:
                // Only recovery-code and phone completions answer these; a store that does here refused the code.
                throw await failure(
                    key: enrollmentID, kind: "factor", now: now,
                    reason: "wrong or already used verification code: enter the code the authenticator app shows now",
                    signingIn: credential.userID)
            }
            break
        }

        let user = signedInUser(resolver.identity, session: session, secondFactor: hint, enrolledFactors: resolver.hints)
        if logger.logLevel <= .debug {
            logger.debug("signed in with TOTP", metadata: ["user": "\(resolver.identity.userID)", "enrollment": "\(enrollmentID)"])
        }
        return AuthDataResult(user: user, secondFactor: hint)
    }

    /// The prepared key of a factor of the resolver's user that is not among its hints (enrolled
    /// since the first step): cached, or read from the store.
    private func verifier(ofOtherFactor enrollmentID: String, resolver: MultiFactorResolver) async throws(AuthError) -> Verifier {
        let verifier: Verifier
        if let cached = cachedVerifier(enrollmentID) {
            verifier = cached
        } else if let record = try await storeCall("reading the factor", { try await store.factor(id: enrollmentID) }) {
            verifier = try cacheVerifier(record)
        } else {
            throw factorNotFound()
        }
        guard verifier.userID == resolver.identity.userID else { throw factorNotFound() }
        return verifier
    }

    private func factorNotFound() -> AuthError {
        AuthError(.multiFactorInfoNotFound, "the user has no second factor with this enrollment id: pick one of the resolver's hints")
    }
}
