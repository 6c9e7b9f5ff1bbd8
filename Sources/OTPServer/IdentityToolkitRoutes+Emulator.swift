internal import Hummingbird
internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// Under the emulator only, the Auth emulator's `DELETE /emulator/v1/projects/{project}/accounts`,
    /// which test suites call between tests: every account goes, with everything of its user, as
    /// the admin deletion takes them. Nothing else in the store (text-message quotas, signing keys)
    /// is touched.
    func addEmulatorRoutes<Context: RequestContext>(to router: Router<Context>) {
        guard configuration.isEmulator else { return }
        let routes = self
        router.delete("/emulator/v1/projects/{project}/accounts") { _, context in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                guard context.parameters.get("project") == routes.configuration.projectID else {
                    throw IdentityToolkitError(
                        status: .notFound, "PROJECT_NOT_FOUND", "this server serves project \(routes.configuration.projectID) only")
                }
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
