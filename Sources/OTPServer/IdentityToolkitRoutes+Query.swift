internal import Hummingbird
internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// The most accounts one `accounts:query` answers (Identity Toolkit's limit).
    static let maximumQueryLimit = 500

    /// `projects/{project}:queryAccounts`, the other path of `accounts:query`.
    func addQueryRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        router.post(RouterPath(Self.identityToolkit + "/projects/{project}:queryAccounts")) { request, context in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                try routes.checkAdminRequest(request, context: context)
                return try await routes.adminQuery(try await routes.readBody(request))
            }
        }
    }

    /// `POST /v1/projects/{project}/accounts:query` (and `…:queryAccounts`): the account an
    /// expression names by `email`, `userId` or `phoneNumber`, or every account in the order of
    /// its uid's bytes from `offset`, `limit` (up to 500, the default) at a time; with
    /// `returnUserInfo: false`, only how many match. Other orders (`sortBy` other than `USER_ID`,
    /// `order: DESC`) are not served (`OPERATION_NOT_ALLOWED`): they would read every account of the
    /// store for each page.
    func adminQuery(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.QueryResponse {
        let request = try body.decode(Wire.QueryRequest.self)
        let limit = Int(clamping: request.limit?.value ?? Int64(Self.maximumQueryLimit))
        let offset = Int(clamping: request.offset?.value ?? 0)
        guard (1...Self.maximumQueryLimit).contains(limit) else {
            throw IdentityToolkitError("INVALID_ARGUMENT", "limit must be 1 to \(Self.maximumQueryLimit)")
        }
        guard offset >= 0 else { throw IdentityToolkitError("INVALID_ARGUMENT", "offset must be 0 or more") }
        guard [nil, "SORT_BY_FIELD_UNSPECIFIED", "USER_ID"].contains(request.sortBy), [nil, "ORDER_UNSPECIFIED", "ASC"].contains(request.order)
        else {
            throw IdentityToolkitError.notServed("accounts are listed by USER_ID ascending only: leave sortBy and order out")
        }
        let returnsUsers = request.returnUserInfo ?? true
        let administration = service.administration
        var matching: [AccountDetails] = []
        if let expression = request.expression?.first {
            let found: AccountDetails?
            if let email = expression.email {
                found = try await call { () async throws(AuthError) in try await administration.accountDetails(email: email) }
            } else if let id = expression.userId {
                found = try await call { () async throws(AuthError) in try await administration.accountDetails(id: id) }
            } else if let number = expression.phoneNumber {
                // A number that is no phone number matches no account.
                do {
                    found = try await administration.accountDetails(phoneNumber: number)
                } catch  where error.code == .invalidPhoneNumber {
                    found = nil
                } catch {
                    throw IdentityToolkitError(error)
                }
            } else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "an expression names email, userId or phoneNumber")
            }
            matching = found.map { [$0] } ?? []
            matching = Array(matching.dropFirst(offset).prefix(limit))
        } else if returnsUsers {
            matching = try await accountsInOrder(skipping: offset, taking: limit)
        } else {
            return Wire.QueryResponse(recordsCount: String(try await accountsInOrder(skipping: 0, taking: .max).count))
        }
        guard returnsUsers else { return Wire.QueryResponse(recordsCount: String(matching.count)) }
        var users: [WireUser] = []
        for details in matching { users.append(try await wireUser(details)) }
        return Wire.QueryResponse(recordsCount: String(users.count), userInfo: users)
    }

    /// `taking` accounts (at most) after the first `skipping`, in the order of their uids' bytes,
    /// read page by page.
    private func accountsInOrder(skipping: Int, taking: Int) async throws(IdentityToolkitError) -> [AccountDetails] {
        var skipped = 0
        var taken: [AccountDetails] = []
        var after: String?
        let administration = service.administration
        while taken.count < taking {
            let page = try await call { () async throws(AuthError) in
                try await administration.accounts(after: after, limit: AccountAdministration.maximumAccountPageSize)
            }
            for details in page.accounts where taken.count < taking {
                if skipped < skipping {
                    skipped += 1
                } else {
                    taken.append(details)
                }
            }
            guard let next = page.nextAfter else { break }
            after = next
        }
        return taken
    }
}
