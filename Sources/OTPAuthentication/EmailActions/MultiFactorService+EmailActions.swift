internal import Foundation
internal import OTPCore

extension MultiFactorService {
    /// Sends a password-reset link to `email` (Firebase's `sendPasswordReset(withEmail:)`).
    ///
    /// Under ``PasswordSettings/emailEnumerationProtection`` an address without an account, or of
    /// a disabled one, is answered as one with an account is, and nothing is sent.
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail``, ``AuthErrorCode/userNotFound``
    ///   and ``AuthErrorCode/userDisabled`` (both without enumeration protection),
    ///   ``AuthErrorCode/tooManyRequests`` past ``EmailActionSettings/sendsPerAddress``,
    ///   ``AuthErrorCode/operationNotAllowed`` without an ``EmailSender``, or
    ///   ``AuthErrorCode/internalError`` when the message could not be sent (no code is left then).
    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws(AuthError) {
        let address = try normalizedEmail(email)
        try actionCodeSettings?.validate()
        let protected = configuration.passwords.emailEnumerationProtection
        guard let account = try await storeCall("reading an account", { try await store.account(email: address) }) else {
            if protected { return }
            throw AuthError(.userNotFound, "no account has this email address", email: address)
        }
        // A disabled account is answered as an unknown address is: its state is its owner's.
        guard !account.isDisabled else {
            if protected { return }
            throw userDisabled()
        }
        _ = try await issueEmailAction(.passwordReset, accountID: account.id, email: address, settings: actionCodeSettings, sending: true)
    }

    /// Sends a sign-in link to `email`, for an account that has the address or one that signing in
    /// creates (Firebase's `sendSignInLink(toEmail:actionCodeSettings:)`).
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail``,
    ///   ``AuthErrorCode/invalidContinueURI``, ``AuthErrorCode/userDisabled``,
    ///   ``AuthErrorCode/tooManyRequests``, ``AuthErrorCode/operationNotAllowed`` or
    ///   ``AuthErrorCode/internalError``, as ``sendPasswordReset(withEmail:actionCodeSettings:)``.
    public func sendSignInLink(toEmail email: String, actionCodeSettings: ActionCodeSettings) async throws(AuthError) {
        let address = try normalizedEmail(email)
        try actionCodeSettings.validate()
        let account = try await storeCall("reading an account") { try await store.account(email: address) }
        if account?.isDisabled == true { throw userDisabled() }
        _ = try await issueEmailAction(.emailSignIn, accountID: account?.id, email: address, settings: actionCodeSettings, sending: true)
    }

    /// What `code` does, without using it (Firebase's `checkActionCode`).
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidActionCode`` or
    ///   ``AuthErrorCode/expiredActionCode``.
    public func checkActionCode(_ code: String) async throws(AuthError) -> ActionCodeInfo {
        let action = try await liveEmailAction(code)
        return ActionCodeInfo(kind: action.kind, email: action.email, newEmail: action.newEmail)
    }

    /// Sets a new password with a password-reset code (Firebase's `confirmPasswordReset`): the
    /// address counts as verified, and every session of the account ends, as a password an
    /// administrator sets ends them.
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidActionCode`` (also for a code of another
    ///   action), ``AuthErrorCode/expiredActionCode``, ``AuthErrorCode/weakPassword`` or
    ///   ``AuthErrorCode/userNotFound``; the code stays usable after a weak password.
    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws(AuthError) {
        let action = try await liveEmailAction(code, kind: .passwordReset)
        try checkNewPassword(newPassword)
        let hash = try await newPasswordHash(newPassword)
        let now = clock.now()
        let userID = action.accountID ?? ""
        try await completeEmailAction(action, changes: AccountChanges(isEmailVerified: true, passwordHash: hash, tokensValidAfter: now), at: now)
        let ended = try await storeCall("ending sessions") { try await store.removeSessions(userID: userID, except: nil) }
        logger.info("password reset", metadata: ["user": "\(userID)", "sessions": "\(ended)"])
    }

    /// Uses an address-verification code (Firebase's `applyActionCode`): a verification marks the
    /// address verified; a change of address makes the new one the account's, verified, ends
    /// every session of the account, and tells the previous address with a link that changes it
    /// back; that link (``EmailActionKind/recoverEmail``) restores the previous address, verified,
    /// and ends every session, so whoever changed it is signed out.
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidActionCode`` (also for a code of another
    ///   action, or for an address the account no longer has), ``AuthErrorCode/expiredActionCode``,
    ///   ``AuthErrorCode/emailAlreadyInUse`` (the address is another account's by now; the code
    ///   stays usable) or ``AuthErrorCode/userNotFound``.
    public func applyActionCode(_ code: String) async throws(AuthError) {
        let action = try await liveEmailAction(code)
        let now = clock.now()
        switch action.kind {
        case .verifyEmail:
            let accountID = action.accountID ?? ""
            let current = try await storeCall("reading an account") { try await store.account(id: accountID) }
            guard current?.email == action.email else {
                throw AuthError(.invalidActionCode, "the account's address changed since this link was sent: ask for a new one")
            }
            _ = try await completeEmailAction(action, changes: AccountChanges(isEmailVerified: true), at: now)
            logger.info("email address verified", metadata: ["user": "\(accountID)"])
        case .verifyAndChangeEmail:
            let userID = action.accountID ?? ""
            try await completeEmailAction(
                action, changes: AccountChanges(email: action.newEmail, isEmailVerified: true, tokensValidAfter: now), at: now)
            _ = try await storeCall("ending sessions") { try await store.removeSessions(userID: userID, except: nil) }
            logger.info("email address changed", metadata: ["user": "\(userID)"])
            await sendAddressChangeNotice(accountID: userID, previous: action.email, current: action.newEmail)
        case .recoverEmail:
            let userID = action.accountID ?? ""
            let current = try await storeCall("reading an account") { try await store.account(id: userID) }
            guard let changedTo = action.newEmail, current?.email == changedTo else {
                throw AuthError(.invalidActionCode, "the account's address changed again since this link was sent: it can no longer restore it")
            }
            try await completeEmailAction(
                action, changes: AccountChanges(email: action.email, isEmailVerified: true, tokensValidAfter: now), at: now)
            let ended = try await storeCall("ending sessions") { try await store.removeSessions(userID: userID, except: nil) }
            logger.notice("email address restored", metadata: ["user": "\(userID)", "sessions": "\(ended)"])
        case .passwordReset, .emailSignIn:
            throw AuthError(.invalidActionCode, "this code is for \(action.kind.mode), not for applying: use it where its link leads")
        }
    }

    /// Signs in with a sign-in link sent to `email` (Firebase's `signIn(withEmail:link:)`): the
    /// account with the address, its address now verified, or a new account with the address and
    /// no password. `link` is the link, or its code alone. An account with second factors answers
    /// ``AuthErrorCode/secondFactorRequired`` with a resolver, as every sign-in does.
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail`` (malformed, or not the address
    ///   the link was sent to), ``AuthErrorCode/invalidActionCode``,
    ///   ``AuthErrorCode/expiredActionCode``, ``AuthErrorCode/userDisabled`` or
    ///   ``AuthErrorCode/secondFactorRequired``.
    public func signIn(withEmail email: String, link: String) async throws(AuthError) -> AuthDataResult {
        let address = try normalizedEmail(email)
        let action = try await liveEmailAction(Self.actionCode(inLink: link), kind: .emailSignIn)
        guard action.email == address else {
            throw AuthError(.invalidEmail, "the email address is not the one the sign-in link was sent to")
        }
        let now = clock.now()
        var proven: AccountChanges?
        if let accountID = action.accountID {
            guard let current = try await storeCall("reading an account", { try await store.account(id: accountID) }), current.email == address
            else {
                throw AuthError(.invalidActionCode, "the account's address changed since this link was sent: ask for a new one")
            }
            guard !current.isDisabled else { throw userDisabled() }
            proven = try await addressProven(current, at: now)
        }
        var account = try await completeEmailAction(action, changes: proven, at: now)
        var isNew = false
        if account == nil {
            // The address had no account when the link was sent: one is made now, unless one was
            // made meanwhile (which the store decides), whose address this link proves as well.
            let fresh = AccountRecord(id: try newID(), email: address, isEmailVerified: true, createdAt: now, lastSignInAt: now)
            let event = auditEvent(.accountCreated, userID: fresh.id, provider: FirstFactorProvider.emailLink.rawValue)
            switch try await storeCall("creating an account", recording: event, { try await store.insertAccount(fresh) }) {
            case .inserted:
                (account, isNew) = (fresh, true)
                logger.info("account created", metadata: ["user": "\(fresh.id)", "provider": "\(FirstFactorProvider.emailLink)"])
            case .emailAlreadyInUse:
                if let made = try await storeCall("reading an account", { try await store.account(email: address) }) {
                    let changes = try await addressProven(made, at: now)
                    let events = auditEvents(for: changes, userID: made.id, actor: .system)
                    if case .updated(let updated) = try await storeCall(
                        "proving an address", recording: events, { try await store.updateAccount(id: made.id, changes: changes) })
                    {
                        (account, proven) = (updated, changes)
                    }
                }
            case .idAlreadyInUse, .identityInUse:
                throw AuthError(.internalError, "the server made an account id already in use: try again")
            }
        }
        guard let account else { throw AuthError(.userNotFound, "the account with this address was deleted while signing in") }
        guard !account.isDisabled else { throw userDisabled() }
        let userID = account.id
        if proven?.removesPasswordHash == true {
            _ = try await storeCall("ending the unproven password's sessions") { try await store.removeSessions(userID: userID, except: nil) }
            logger.notice("unverified password replaced by the address's owner", metadata: ["user": "\(userID)", "provider": "emailLink"])
        }
        if !isNew { try await storeCall("recording a sign-in") { try await store.recordAccountSignIn(id: userID, at: now, rehash: nil) } }
        let linked = try await storeCall("reading linked identities") { try await store.providerIdentities(accountID: userID) }
        var result = AuthDataResult(user: try await signIn(firstFactorIdentity(account, provider: .password, linked: linked)), secondFactor: nil)
        result.isNewUser = isNew
        return result
    }

    /// Links the address a sign-in link was sent to to `account` (Firebase's `link(with:)` with
    /// `EmailAuthProvider.credential(withEmail:link:)`): it becomes the account's address,
    /// verified, in the store operation that uses the link's code. A password the account has
    /// stays, now with this address, as Firebase's does.
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail`` (malformed, or not the address
    ///   the link was sent to), ``AuthErrorCode/emailAlreadyInUse`` (another account has it),
    ///   ``AuthErrorCode/invalidActionCode`` or ``AuthErrorCode/expiredActionCode``.
    func linkAddress(_ email: String, provenBy link: String, to account: AccountRecord, at now: Int64) async throws(AuthError) {
        let address = try normalizedEmail(email)
        let action = try await liveEmailAction(Self.actionCode(inLink: link), kind: .emailSignIn)
        guard action.email == address else {
            throw AuthError(.invalidEmail, "the email address is not the one the sign-in link was sent to")
        }
        // The store decides, but what it would refuse is refused before the code is used.
        if let owner = try await storeCall("reading an account", { try await store.account(email: address) }), owner.id != account.id {
            throw AuthError(.emailAlreadyInUse, "another account has this email address", email: address)
        }
        _ = try await completeEmailAction(action, changes: AccountChanges(email: address, isEmailVerified: true), accountID: account.id, at: now)
    }

    // MARK: Shared steps

    /// What an address proven by its owner's sign-in link changes on `account`: the address counts
    /// as verified, and a password someone set without ever proving the address goes, with its
    /// sessions (the rule a federated sign-in applies, ``hasUnprovenPassword(_:)``), so that
    /// whoever made the account with another's address loses it to the owner.
    private func addressProven(_ account: AccountRecord, at now: Int64) async throws(AuthError) -> AccountChanges {
        guard account.passwordHash != nil, try await hasUnprovenPassword(account) else { return AccountChanges(isEmailVerified: true) }
        return AccountChanges(isEmailVerified: true, tokensValidAfter: now, removesPasswordHash: true)
    }

    /// Tells `previous`, the address an account had, that a user changed it to `current`, with a
    /// link that changes it back (Firebase's `RECOVER_EMAIL`): the way back for an owner whose
    /// session someone else used. The change is made already, so a message that cannot be sent (no
    /// sender, the address's send limit, the mail server) is logged, not thrown.
    func sendAddressChangeNotice(accountID: String, previous: String?, current: String?) async {
        guard let previous, previous != current, emailSender != nil else { return }
        do {
            _ = try await issueEmailAction(.recoverEmail, accountID: accountID, email: previous, newEmail: current, settings: nil, sending: true)
        } catch {
            logger.error("the previous address was not told of its change", metadata: ["user": "\(accountID)", "error": "\(error)"])
        }
    }

    /// How long an email action's code is: 32 bytes of OpenSSL's CSPRNG, 43 characters of base64url.
    static let emailActionCodeByteCount = 32

    /// Makes the code of an action, stores its keyed digest, and with `sending` sends its message,
    /// throttled per address; a message that cannot be sent leaves no code behind.
    func issueEmailAction(
        _ kind: EmailActionKind, accountID: String?, email: String, newEmail: String? = nil, settings: ActionCodeSettings?, sending: Bool
    ) async throws(AuthError) -> EmailActionLink {
        let emailSettings = configuration.emailActions
        let now = clock.now()
        // The address the message goes to, which the send limit protects from floods.
        let recipient = kind == .verifyAndChangeEmail ? newEmail ?? email : email
        if sending {
            guard emailSender != nil else {
                throw AuthError(.operationNotAllowed, "this server sends no email: configure a mail sender for password resets and email links")
            }
            let outcome = try await storeCall("counting an email") {
                try await store.consumeQuota(
                    key: "email:\(recipient)", window: emailSettings.sendWindow, limit: emailSettings.sendsPerAddress, at: now)
            }
            if case .exceeded(let until) = outcome {
                throw AuthError(.tooManyRequests, "too many emails were sent to this address: try again in \(until - now) seconds")
            }
        }
        var bytes = [UInt8](repeating: 0, count: Self.emailActionCodeByteCount)
        guard bytes.withUnsafeMutableBytes({ SecureRandom.fill($0) }) else {
            throw AuthError(.internalError, "could not draw a code: OpenSSL's random generator failed")
        }
        let code = Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
        let digest: [UInt8]
        do {
            digest = try codeDigestKeys.codeDigest(code, context: Self.emailActionContext)
        } catch {
            throw AuthError(.internalError, "could not digest the code: \(error)")
        }
        let record = EmailActionRecord(
            codeDigest: digest, kind: kind, accountID: accountID, email: email, newEmail: newEmail, createdAt: now,
            expiresAt: now + emailSettings.lifetime(of: kind))
        try await storeCall("storing an email action") { try await store.insertEmailAction(record) }
        let link = emailSettings.link(kind: kind, code: code, continueURL: settings?.continueURL)
        if sending, let emailSender {
            let template = emailSettings.templates[kind] ?? .standard(for: kind)
            do {
                try await emailSender.send(
                    template.message(kind: kind, to: recipient, link: link, appName: emailSettings.appName, newEmail: newEmail))
            } catch {
                _ = try? await storeCall("discarding an unsent email action") { try await store.deleteEmailAction(digest: digest) }
                logger.error("email not sent", metadata: ["user": "\(accountID ?? "-")", "kind": "\(kind.rawValue)", "error": "\(error)"])
                throw AuthError(.internalError, "the email could not be sent: try again later", underlyingError: error)
            }
            logger.info("email sent", metadata: ["user": "\(accountID ?? "-")", "kind": "\(kind.rawValue)"])
        }
        return EmailActionLink(code: code, link: link, email: recipient)
    }

    /// The context email-action codes are digested in, apart from every other code's.
    static let emailActionContext = "otpkit email action"

    /// The unexpired action of `code`, of `kind` when given.
    func liveEmailAction(_ code: String, kind: EmailActionKind? = nil) async throws(AuthError) -> EmailActionRecord {
        guard !code.isEmpty else { throw AuthError(.invalidActionCode, "no code given: pass the oobCode of the link") }
        let digests: [[UInt8]]
        do {
            digests = try codeDigestKeys.codeDigests(code, context: Self.emailActionContext)
        } catch {
            throw AuthError(.internalError, "could not digest the code: \(error)")
        }
        guard let action = try await storeCall("reading an email action", { try await store.emailAction(digests: digests) }) else {
            throw AuthError(.invalidActionCode, "this code is unknown or was used already: ask for a new link")
        }
        guard clock.now() <= action.expiresAt else {
            throw AuthError(.expiredActionCode, "this code expired: ask for a new link")
        }
        if let kind, action.kind != kind {
            throw AuthError(.invalidActionCode, "this code is for \(action.kind.mode), not \(kind.mode): use it where its link leads")
        }
        return action
    }

    /// Uses `action` with `changes` to its account, or throws the error that says why it could not
    /// be; the account as it is now (with `changes`; `nil` without).
    @discardableResult
    func completeEmailAction(_ action: EmailActionRecord, changes: AccountChanges?, accountID: String? = nil, at now: Int64) async throws(AuthError)
        -> AccountRecord?
    {
        let digest = action.codeDigest
        let events = (accountID ?? action.accountID).map { auditEvents(of: action.kind, changes: changes, userID: $0) } ?? []
        switch try await storeCall(
            "using an email action", recording: events,
            { try await store.completeEmailAction(digest: digest, at: now, changes: changes, accountID: accountID) })
        {
        case .completed(let account):
            return account
        case .notFound:
            throw AuthError(.invalidActionCode, "this code was used already: ask for a new link")
        case .expired:
            throw AuthError(.expiredActionCode, "this code expired: ask for a new link")
        case .accountNotUpdated(.accountNotFound):
            throw AuthError(.userNotFound, "the account this code was for was deleted")
        case .accountNotUpdated(.emailAlreadyInUse):
            throw AuthError(.emailAlreadyInUse, "another account has this email address by now", email: changes?.email ?? action.newEmail)
        case .accountNotUpdated:
            throw AuthError(.internalError, "the store refused the change of this code for a reason it cannot have")
        }
    }

    /// The events of an email action's use: by whoever holds the link, but for a sign-in link,
    /// whose holder signs in.
    private func auditEvents(of kind: EmailActionKind, changes: AccountChanges?, userID: String) -> [AuditEvent] {
        let event: AuditEvent? =
            switch kind {
            case .passwordReset: auditEvent(.passwordReset, userID: userID, actor: .anonymous)
            case .verifyEmail: auditEvent(.emailVerified, userID: userID, actor: .anonymous)
            case .verifyAndChangeEmail: auditEvent(.emailChanged, userID: userID, actor: .anonymous)
            case .recoverEmail:
                auditEvent(.emailChanged, userID: userID, actor: .anonymous, reason: "restored by the link sent to the previous address")
            case .emailSignIn: nil
            }
        if let event { return [event] }
        return changes.map { auditEvents(for: $0, userID: userID) } ?? []
    }

    /// The `oobCode` of a link, or `link` itself when it is no URL with one (a code alone).
    package static func actionCode(inLink link: String) -> String {
        guard let components = URLComponents(string: link), let items = components.queryItems else { return link }
        if let code = items.first(where: { $0.name == "oobCode" })?.value { return code }
        // Firebase's wrapped links carry the action link in `link` (or `deep_link_id`).
        for name in ["link", "deep_link_id"] {
            if let inner = items.first(where: { $0.name == name })?.value, inner != link { return actionCode(inLink: inner) }
        }
        return link
    }
}
