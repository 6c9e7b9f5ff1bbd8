internal import OTPCommandSupport
internal import OTPAuthentication

/// The second step of sign-in at a terminal: pick a hint, ask for its code (for a phone factor,
/// after sending it), resolve; or resolve with a recovery code given on the command line.
enum SignInFlow {
    /// How many codes a person may type in one run before the command gives up (the service's own
    /// throttling may stop them sooner).
    static let attempts = 5

    /// Signs `identity` in. Returns `nil` as the second factor when the user has none.
    ///
    /// With `recoveryCode`, the second step spends that recovery code instead of asking for a
    /// TOTP code (one attempt, as with `code`).
    static func signIn(
        _ service: MultiFactorService,
        _ identity: FirstFactorIdentity,
        factor: String?,
        code: String?,
        recoveryCode: String? = nil
    ) async throws(CommandFailure) -> (user: User, secondFactor: MultiFactorInfo?) {
        try await signIn(as: identity.userID, factor: factor, code: code, recoveryCode: recoveryCode) { () async throws(AuthError) in
            try await service.signIn(identity)
        }
    }

    /// Signs in with `firstFactor` (a password, an ID token, or the host's word), then the second
    /// factor when the user has one. `user` stands for the user in the prompts.
    static func signIn(
        as user: String,
        factor: String?,
        code: String?,
        recoveryCode: String?,
        firstFactor: () async throws(AuthError) -> User
    ) async throws(CommandFailure) -> (user: User, secondFactor: MultiFactorInfo?) {
        let resolver: MultiFactorResolver
        do {
            return (try await firstFactor(), nil)
        } catch  where error.code == .secondFactorRequired && error.resolver != nil {
            resolver = error.resolver!
        } catch {
            throw CommandFailure(error)
        }
        if let recoveryCode {
            do {
                let result = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: recoveryCode))
                return (result.user, result.secondFactor)
            } catch {
                throw CommandFailure(error)
            }
        }
        let (hint, picked) = try choose(factor, code: code, from: resolver.hints, user: user)
        let name = hint.displayName.map { "'\($0)' " } ?? ""
        switch hint.kind {
        case .phone:
            if code == nil && !picked {
                StandardStreams.writeError(
                    "\(user) has a phone second factor \(name)(\(hint.phoneNumber ?? "?"), enrollment id \(hint.uid)).\n")
            }
            return try await phoneSignIn(resolver, hint, code: code)
        case .totp:
            break
        case .webauthn:
            // An assertion needs the authenticator, which a terminal does not reach.
            throw .refused(
                "\(user)'s second factor \(name)(enrollment id \(hint.uid)) is a passkey, which needs a browser: sign in through otpkit-server, or with another factor or a recovery code here"
            )
        case .recoveryCode, nil:
            // Hints list enrolled factors only, each of a known kind.
            throw .refused("\(user)'s second factor \(hint.uid) is of a kind this command cannot sign in with (\(hint.factorID))")
        }
        if code == nil && !picked {
            StandardStreams.writeError("\(user) has a TOTP second factor \(name)(enrollment id \(hint.uid)).\n")
        }
        for attempt in 1...(code == nil ? attempts : 1) {
            guard let typed = code ?? Prompt.askForCode("Code from your authenticator app: ") else {
                throw .refused("no code entered: run the command again and type the code your authenticator app shows")
            }
            if typed.isEmpty, code == nil { continue }
            let assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: typed)
            do {
                let result = try await resolver.resolveSignIn(with: assertion)
                return (result.user, result.secondFactor)
            } catch  where error.code == .invalidVerificationCode && code == nil && attempt < attempts {
                StandardStreams.writeError("\(error.message)\n")
            } catch {
                throw CommandFailure(error)
            }
        }
        throw .refused("no valid code after \(attempts) attempts")
    }

    /// Sends a code to the phone factor `hint` and resolves with the code typed (or `code`).
    private static func phoneSignIn(_ resolver: MultiFactorResolver, _ hint: MultiFactorInfo, code: String?) async throws(CommandFailure) -> (
        user: User, secondFactor: MultiFactorInfo?
    ) {
        let provider = PhoneAuthProvider.provider()
        let verificationID: String
        do {
            verificationID = try await provider.verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
        } catch {
            throw CommandFailure(error)
        }
        if code == nil { StandardStreams.writeError("Sent a code to \(hint.phoneNumber ?? "the enrolled number").\n") }
        for attempt in 1...(code == nil ? attempts : 1) {
            guard let typed = code ?? Prompt.askForCode("Code from the text message: ") else {
                throw .refused("no code entered: run the command again and type the code of the text message")
            }
            if typed.isEmpty, code == nil { continue }
            let credential = provider.credential(withVerificationID: verificationID, verificationCode: typed)
            do {
                let result = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: credential))
                return (result.user, result.secondFactor)
            } catch  where error.code == .invalidVerificationCode && code == nil && attempt < attempts {
                StandardStreams.writeError("\(error.message)\n")
            } catch {
                throw CommandFailure(error)
            }
        }
        throw .refused("no valid code after \(attempts) attempts")
    }

    /// The factor `--factor` names; else the only one, or the first when `--code` was given
    /// (there is no one to ask); else the one the person picks from a list. `picked` says the
    /// list was shown, which already told them what the factor is.
    private static func choose(_ factor: String?, code: String?, from hints: [MultiFactorInfo], user: String) throws(CommandFailure) -> (
        hint: MultiFactorInfo, picked: Bool
    ) {
        guard let factor else {
            if hints.count == 1 || code != nil { return (hints[0], false) }
            return (try FactorMenu.choose(from: hints, user: user), true)
        }
        guard let hint = hints.first(where: { $0.uid == factor }) else {
            throw .usage("\(user) has no second factor \(factor); enrolled: \(hints.map(\.uid).joined(separator: ", "))")
        }
        return (hint, false)
    }
}
