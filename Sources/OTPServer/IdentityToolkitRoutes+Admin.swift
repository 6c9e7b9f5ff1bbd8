internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `POST /v1/projects/{project}/accounts` (firebase-admin's `create_user`): the account, no tokens.
    func adminCreate(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.SignUpResponse {
        let request = try body.decode(Wire.AdminCreateRequest.self)
        if let number = request.phoneNumber, number.isEmpty {
            throw IdentityToolkitError("INVALID_PHONE_NUMBER", "the phone number is empty: give one in E.164 form such as +12015550123")
        }
        let creation = try await call { () async throws(AuthError) in
            try await service.administration.createAccount(
                id: request.localId, email: request.email.flatMap { $0.isEmpty ? nil : $0 }, password: request.password,
                displayName: request.displayName, photoURL: request.photoUrl, isEmailVerified: request.emailVerified ?? false,
                isDisabled: request.disabled ?? false, phoneNumber: request.phoneNumber)
        }
        switch creation {
        case .created(let account):
            return Wire.SignUpResponse(localId: account.id, email: account.email, displayName: account.displayName)
        case .emailAlreadyInUse:
            throw IdentityToolkitError("EMAIL_EXISTS", "another account has this email address")
        case .idAlreadyInUse:
            throw IdentityToolkitError("DUPLICATE_LOCAL_ID", "another account has this uid")
        case .phoneNumberAlreadyInUse:
            throw IdentityToolkitError("PHONE_NUMBER_EXISTS", "another account has this phone number")
        }
    }

    /// `POST /v1/projects/{project}/accounts:lookup` (firebase-admin's `get_user`,
    /// `get_user_by_email`, `get_user_by_phone_number`, `get_users`): the accounts found by
    /// `localId`, `email`, `phoneNumber` and `federatedUserId`, each once, `users` left out when
    /// none is.
    func adminLookup(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.LookupResponse {
        let request = try body.decode(Wire.LookupRequest.self)
        if let idToken = request.idToken, !idToken.isEmpty {
            return try await lookup(body)
        }
        var users: [WireUser] = []
        var seen: Set<String> = []
        for id in request.localId ?? [] {
            if let details = try await call({ () async throws(AuthError) in try await service.administration.accountDetails(id: id) }),
                seen.insert(details.account.id).inserted
            {
                users.append(try await wireUser(details))
            }
        }
        for email in request.email ?? [] {
            if let details = try await call({ () async throws(AuthError) in try await service.administration.accountDetails(email: email) }),
                seen.insert(details.account.id).inserted
            {
                users.append(try await wireUser(details))
            }
        }
        for number in request.phoneNumber ?? [] {
            if let details = try await call({ () async throws(AuthError) in try await service.administration.accountDetails(phoneNumber: number) }),
                seen.insert(details.account.id).inserted
            {
                users.append(try await wireUser(details))
            }
        }
        for identity in request.federatedUserId ?? [] {
            guard let providerID = identity.providerId, !providerID.isEmpty, let rawID = identity.rawId, !rawID.isEmpty else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "each federatedUserId needs a providerId and a rawId")
            }
            if let details = try await call({ () async throws(AuthError) in
                try await service.administration.accountDetails(providerID: providerID, providerUID: rawID)
            }), seen.insert(details.account.id).inserted {
                users.append(try await wireUser(details))
            }
        }
        return Wire.LookupResponse(users: users.isEmpty ? nil : users)
    }

    /// An account as lookups answer it, with its second factors (numbers whole) and passkeys.
    func wireUser(_ details: AccountDetails) async throws(IdentityToolkitError) -> WireUser {
        let id = details.account.id
        let factors = try await call { () async throws(AuthError) in try await service.administration.enrolledFactors(accountID: id) }
        let passkeys = try await call { () async throws(AuthError) in try await service.administration.passkeys(accountID: id) }
        return WireUser(details, factors: factors, passkeys: passkeys)
    }

    /// `POST /v1/projects/{project}/accounts:delete` (firebase-admin's `delete_user`), which needs
    /// a non-empty `kind` in the answer.
    func adminDelete(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.DeleteResponse {
        let request = try body.decode(Wire.DeleteRequest.self)
        guard let id = request.localId, !id.isEmpty else { throw IdentityToolkitError("MISSING_LOCAL_ID", "give the uid of the account to delete") }
        guard try await call({ () async throws(AuthError) in try await service.administration.deleteAccount(id: id) }) else {
            throw IdentityToolkitError("USER_NOT_FOUND", "no account has this uid")
        }
        return Wire.DeleteResponse()
    }
}
