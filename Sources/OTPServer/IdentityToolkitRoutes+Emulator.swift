internal import Hummingbird
internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// The Auth emulator's own calls, under the emulator only: `GET
    /// /emulator/v1/projects/{project}/verificationCodes`, the text messages' codes not used yet
    /// (``EmulatorSMSOutbox``), `GET /emulator/v1/projects/{project}/oobCodes`, the links of the
    /// email actions (``EmulatorMailOutbox``), and `DELETE /emulator/v1/projects/{project}/accounts`, which test
    /// suites call between tests: every account goes, with everything of its user, as the admin
    /// deletion takes them. Nothing else in the store (text-message quotas, signing keys) is touched.
    func addEmulatorRoutes<Context: RequestContext>(to router: Router<Context>) {
        guard configuration.isEmulator else { return }
        let routes = self
        if let outbox = verificationCodes {
            router.get("/emulator/v1/projects/{project}/verificationCodes") { _, context in
                await routes.respond {
                    () async throws(IdentityToolkitError) -> any Encodable in
                    try routes.checkProject(context)
                    return Wire.VerificationCodes(
                        verificationCodes: outbox.pending.map { .init(code: $0.code, phoneNumber: $0.phoneNumber, sessionInfo: $0.sessionInfo) })
                }
            }
        }
        if let outbox = mailOutbox {
            router.get("/emulator/v1/projects/{project}/oobCodes") { _, context in
                await routes.respond {
                    () async throws(IdentityToolkitError) -> any Encodable in
                    try routes.checkProject(context)
                    return Wire.OobCodes(
                        oobCodes: outbox.sent.map { .init(email: $0.email, oobCode: $0.code, oobLink: $0.link, requestType: $0.kind.rawValue) })
                }
            }
        }
        router.delete("/emulator/v1/projects/{project}/accounts") { _, context in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                try routes.checkProject(context)
                try await routes.deleteEveryAccount()
                return Wire.Empty()
            }
        }
    }

    private func deleteEveryAccount() async throws(IdentityToolkitError) {
        let administration = service.administration
        while true {
            let page = try await call { () async throws(AuthError) in
                try await administration.accounts(after: nil, limit: AccountAdministration.maximumAccountPageSize)
            }
            for details in page.accounts {
                _ = try await call { () async throws(AuthError) in try await administration.deleteAccount(id: details.account.id) }
            }
            if page.nextAfter == nil { return }
        }
    }
}

extension Wire {
    /// `{}`: what the emulator's own calls answer.
    struct Empty: Encodable {}
}
