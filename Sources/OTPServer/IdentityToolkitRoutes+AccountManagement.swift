internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// The most ids one `accounts:batchDelete` takes (Firebase's limit, which firebase-admin checks too).
    static let maximumBatchDeleteCount = 1000

    /// `POST /v1/projects/{project}/accounts:update` (firebase-admin's `update_user`,
    /// `revoke_refresh_tokens`): every change in one store operation, or none. `validSince` and a
    /// new password end the user's sessions, so refresh tokens stop working and ID tokens issued
    /// before are revoked. `deleteProvider` unlinks any provider the account has (`password`,
    /// `phone`, `google.com`, …); one it does not have is `NO_SUCH_PROVIDER`, and nothing changes.
    /// `deletePasskey` removes the account's passkeys by credential id once the rest is done (any of
    /// them, the last of an account with no other way in too: the operator decides), ignoring ids
    /// the account has no passkey with.
    /// `customAttributes` (firebase-admin's `set_custom_user_claims`) are checked as Firebase checks
    /// them (OTPAuthentication's `CustomClaims`) and carried by the ID tokens issued afterwards.
    func adminUpdate(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.UpdateResponse {
        let request = try body.decode(Wire.AdminUpdateRequest.self)
        guard let id = request.localId, !id.isEmpty else { throw IdentityToolkitError("MISSING_LOCAL_ID", "give the uid of the account to update") }
        let customAttributes = try request.customAttributes.map { (text) throws(IdentityToolkitError) in
            do throws(AdminRequestError) { return try CustomClaims.change(text) } catch { throw IdentityToolkitError(error) }
        }
        let (displayName, photoURL) = try Self.profileChanges(
            displayName: request.displayName, photoURL: request.photoUrl, deleteAttribute: request.deleteAttribute)
        let phoneNumber = request.phoneNumber.map { AttributeChange.set($0) }
        var unlinked: Set<String> = []
        for provider in request.deleteProvider ?? [] {
            guard !provider.isEmpty else { throw IdentityToolkitError("INVALID_ARGUMENT", "deleteProvider holds an empty provider id") }
            unlinked.insert(provider)
        }
        if unlinked.contains(PhoneAuthProvider.id), phoneNumber != nil {
            throw IdentityToolkitError("INVALID_ARGUMENT", "the request both sets the phone number and deletes the phone provider: send one")
        }
        if unlinked.contains(EmailAuthProvider.id), request.email != nil || request.password != nil {
            throw IdentityToolkitError(
                "INVALID_ARGUMENT", "the request both sets the address or password and deletes the password provider: send one")
        }
        if let email = request.email, email.isEmpty { throw IdentityToolkitError("INVALID_EMAIL", "the email address is empty") }
        if let password = request.password, password.isEmpty { throw IdentityToolkitError("WEAK_PASSWORD", "the password is empty") }
        if case .set(let number) = phoneNumber, number.isEmpty {
            throw IdentityToolkitError("INVALID_PHONE_NUMBER", "the phone number is empty: give one in E.164 form such as +12015550123")
        }
        if let validSince = request.validSince?.value, validSince < 0 {
            throw IdentityToolkitError("INVALID_ARGUMENT", "validSince must be a Unix time in seconds, not negative")
        }
        let passkeys = try Wire.passkeyIDs(request.deletePasskey)
        let factorUpdate = try await secondFactorUpdate(request.mfa, accountID: id)
        let update = try await call { () async throws(AuthError) in
            try await service.administration.updateAccount(
                id: id, email: request.email, password: request.password, displayName: displayName, photoURL: photoURL,
                phoneNumber: phoneNumber, isEmailVerified: request.emailVerified, isDisabled: request.disableUser,
                tokensValidAfter: request.validSince?.value, unlinkedProviders: unlinked, customAttributes: customAttributes)
        }
        switch update {
        case .updated:
            if let factorUpdate { try await apply(factorUpdate, accountID: id) }
            for credentialID in passkeys {
                _ = try await call { () async throws(AuthError) in
                    try await service.administration.removePasskey(accountID: id, credentialID: credentialID)
                }
            }
            guard let details = try await call({ () async throws(AuthError) in try await service.administration.accountDetails(id: id) }) else {
                throw IdentityToolkitError("USER_NOT_FOUND", "the account was deleted as it was updated")
            }
            return Wire.UpdateResponse(WireUser(details))
        case .accountNotFound:
            throw IdentityToolkitError("USER_NOT_FOUND", "no account has this uid")
        case .emailAlreadyInUse:
            throw IdentityToolkitError("EMAIL_EXISTS", "another account has this email address")
        case .identityInUse:
            throw IdentityToolkitError("PHONE_NUMBER_EXISTS", "another account has this phone number")
        }
    }

    /// `GET /v1/projects/{project}/accounts:batchGet?maxResults=N&nextPageToken=T`
    /// (firebase-admin's `list_users`): accounts in the order of their ids' bytes, `maxResults`
    /// (1 to 1000, 20 when absent) a page; the page token is the last id of the page before, as
    /// the emulator's is.
    func adminBatchGet(maxResults: String?, nextPageToken: String?) async throws(IdentityToolkitError) -> Wire.BatchGetResponse {
        var limit = 20
        if let maxResults {
            guard let number = Int(maxResults), (1...AccountAdministration.maximumAccountPageSize).contains(number) else {
                throw IdentityToolkitError(
                    "INVALID_ARGUMENT", "maxResults must be a whole number from 1 to \(AccountAdministration.maximumAccountPageSize)")
            }
            limit = number
        }
        let after = nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
        let page = try await call { () async throws(AuthError) in try await service.administration.accounts(after: after, limit: limit) }
        var users: [WireUser] = []
        for details in page.accounts { users.append(try await wireUser(details)) }
        return Wire.BatchGetResponse(users: users.isEmpty ? nil : users, nextPageToken: page.nextAfter)
    }

    /// `POST /v1/projects/{project}/accounts:batchDelete` (firebase-admin's `delete_users`):
    /// without `force`, accounts that are not disabled stay and are reported in `errors`; ids
    /// without an account count as deleted.
    func adminBatchDelete(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.BatchDeleteResponse {
        let request = try body.decode(Wire.BatchDeleteRequest.self)
        guard let ids = request.localIds, !ids.isEmpty else { throw IdentityToolkitError("MISSING_LOCAL_ID", "give the uids to delete in localIds") }
        guard ids.count <= Self.maximumBatchDeleteCount else {
            throw IdentityToolkitError("INVALID_ARGUMENT", "give at most \(Self.maximumBatchDeleteCount) uids at once")
        }
        guard ids.allSatisfy({ !$0.isEmpty }) else { throw IdentityToolkitError("INVALID_ARGUMENT", "localIds holds an empty uid") }
        let failures = try await call { () async throws(AuthError) in
            try await service.administration.deleteAccounts(ids: ids, force: request.force ?? false)
        }
        return Wire.BatchDeleteResponse(
            errors: failures.isEmpty ? nil : failures.map { .init(index: $0.index, localId: $0.accountID, message: $0.message) })
    }
}

extension IdentityToolkitRoutes {
    /// What `mfa` asks of the account's second factors, checked before anything changes: each
    /// listed factor one of the account's; `nil` when the request leaves second factors alone.
    func secondFactorUpdate(_ mfa: Wire.AdminUpdateRequest.MultiFactorUpdate?, accountID: String) async throws(IdentityToolkitError)
        -> SecondFactorUpdate?
    {
        guard let mfa else { return nil }
        let enrolled = Dictionary(
            try await call { () async throws(AuthError) in try await service.administration.enrolledFactors(accountID: accountID) }.map {
                ($0.uid, $0.displayName ?? "")
            }, uniquingKeysWith: { first, _ in first })
        var update = SecondFactorUpdate()
        for enrollment in mfa.enrollments ?? [] {
            guard let id = enrollment.mfaEnrollmentId, !id.isEmpty else {
                throw IdentityToolkitError(
                    "INVALID_ARGUMENT", "mfa.enrollments lists a factor without its mfaEnrollmentId: the user enrolls new second factors themselves")
            }
            guard let name = enrolled[id] else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "mfaEnrollmentId \(id.prefix(64)) is not a second factor of the account")
            }
            update.kept.insert(id)
            if let newName = enrollment.displayName, newName != name { update.names[id] = newName }
        }
        return update
    }

    /// Removes every second factor of the account but those `update` keeps, and with none kept its
    /// recovery codes; then renames those it names.
    func apply(_ update: SecondFactorUpdate, accountID: String) async throws(IdentityToolkitError) {
        let administration = service.administration
        try await call { () async throws(AuthError) in
            if update.kept.isEmpty {
                try await administration.resetSecondFactors(accountID: accountID)
                return
            }
            for factor in try await administration.enrolledFactors(accountID: accountID) where !update.kept.contains(factor.uid) {
                _ = try await administration.removeSecondFactor(accountID: accountID, enrollmentID: factor.uid)
            }
            for (id, name) in update.names.sorted(by: { $0.key < $1.key }) {
                _ = try await administration.renameSecondFactor(accountID: accountID, enrollmentID: id, to: name)
            }
        }
    }
}

/// What an administrator's `mfa` field asks of an account's second factors.
struct SecondFactorUpdate {
    /// The enrollment ids that stay; the account's other factors go.
    var kept: Set<String> = []
    /// New names by enrollment id, for the kept factors whose `displayName` the request changes
    /// (an empty name removes the name).
    var names: [String: String] = [:]
}
