internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `POST /v1/projects/{project}/accounts:batchCreate` (firebase-admin's `import_users`): up to
    /// 1000 accounts made as they are, each whole or not at all, with per-account reasons in
    /// `error` (HTTP 200 even then, as Firebase answers). Password hashes are taken as
    /// `STANDARD_SCRYPT` (what `totp account export` writes), `PBKDF_SHA1`, `PBKDF2_SHA256`, `BCRYPT`, `MD5`,
    /// `SHA1`, `SHA256` and `SHA512` (with `passwordHashOrder`), and
    /// Firebase's own `SCRYPT` of a project the service is configured with (OTPAuthentication's `FirebaseHashConfig`); the other algorithms are
    /// refused whole, and so is `allowOverwrite`: existing accounts are never written over. Second factors (`mfaInfo`) come along: phone factors as Firebase exports them, TOTP factors with OTPKit's `totpInfo.sharedSecretKey`, each under a new enrollment id.
    func adminBatchCreate(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.BatchCreateResponse {
        let request = try body.decode(Wire.BatchCreateRequest.self)
        guard let users = request.users, !users.isEmpty else {
            throw IdentityToolkitError("MISSING_USER_ACCOUNT", "give the accounts to import in users")
        }
        guard users.count <= AccountAdministration.maximumImportCount else {
            throw IdentityToolkitError("INVALID_ARGUMENT", "give at most \(AccountAdministration.maximumImportCount) users at once")
        }
        if request.allowOverwrite == true {
            throw IdentityToolkitError("INVALID_ARGUMENT", "existing accounts are never overwritten here: delete them first, then import")
        }
        var ids: Set<String> = []
        for user in users {
            if let id = user.localId, !ids.insert(id).inserted { throw IdentityToolkitError("DUPLICATE_LOCAL_ID", id) }
        }
        let hashing: FirebaseImportHashing?
        var failures: [Wire.BatchCreateResponse.Failure] = []
        var accepted: [(index: Int, account: ImportedAccount)] = []
        do throws(AdminRequestError) {
            hashing = try FirebaseImportHashing(request.hashing, configured: service.configuration.passwords)
        } catch {
            throw IdentityToolkitError(error)
        }
        for (index, user) in users.enumerated() {
            do throws(AdminRequestError) {
                accepted.append((index, try ImportedAccount(firebase: user, hashing: hashing)))
            } catch {
                failures.append(.init(index: index, message: error.message))
            }
        }
        let refused = try await call { () async throws(AuthError) in try await service.administration.importAccounts(accepted.map(\.account)) }
        failures += refused.map { .init(index: accepted[$0.index].index, message: $0.message) }
        failures.sort { $0.index < $1.index }
        return Wire.BatchCreateResponse(error: failures.isEmpty ? nil : failures)
    }
}
