internal import Hummingbird

extension IdentityToolkitRoutes {
    /// The legacy v3 names firebase-tools' `auth:import` and `auth:export` post to:
    /// `uploadAccount` (`accounts:batchCreate`) and `downloadAccount` (`accounts:batchGet`, its
    /// `maxResults` and `nextPageToken` in the body), administrator's calls that name the project in
    /// `targetProjectId`, without which they are `INSUFFICIENT_PERMISSION`, as the emulator answers.
    func addLegacyAdminRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        router.post(RouterPath(Self.relyingParty + "/uploadAccount")) { request, _ in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                try routes.checkAdmin(request)
                let body = try await routes.readBody(request)
                try routes.checkTargetProject(try body.decode(Wire.LegacyAdminRequest.self))
                return try await routes.adminBatchCreate(body)
            }
        }
        router.post(RouterPath(Self.relyingParty + "/downloadAccount")) { request, _ in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                try routes.checkAdmin(request)
                let legacy = try await routes.readBody(request).decode(Wire.LegacyAdminRequest.self)
                try routes.checkTargetProject(legacy)
                return try await routes.adminBatchGet(
                    maxResults: legacy.maxResults.map { String($0.value) }, nextPageToken: legacy.nextPageToken)
            }
        }
    }

    private func checkTargetProject(_ request: Wire.LegacyAdminRequest) throws(IdentityToolkitError) {
        guard request.targetProjectId == configuration.projectID else {
            throw IdentityToolkitError(
                "INSUFFICIENT_PERMISSION", "give targetProjectId, the project this server serves (\(configuration.projectID))")
        }
    }
}
