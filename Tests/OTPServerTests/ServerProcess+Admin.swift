import Foundation
import Testing

/// Admin calls as firebase-admin sends them under `FIREBASE_AUTH_EMULATOR_HOST`: `Bearer owner`,
/// which the server takes under `--emulator` only.
extension IdentityToolkitTestClient {
    /// `POST /v1/projects/{project}/accounts:update` with `fields`.
    func adminUpdate(_ fields: [String: Any]) async throws -> ServerProcess.Answer {
        try await send("/identitytoolkit.googleapis.com/v1/projects/\(projectID)/accounts:update", ServerProcess.json(fields), bearer: "owner")
    }

    /// The account `uid` as an administrator's lookup answers it.
    func adminUser(_ uid: String) async throws -> [String: Any] {
        let found = try await send(
            "/identitytoolkit.googleapis.com/v1/projects/\(projectID)/accounts:lookup", ServerProcess.json(["localId": [uid]]), bearer: "owner")
        try #require(found.status == 200, "\(found.body)")
        return try #require((found.json["users"] as? [[String: Any]])?.first, "\(found.body)")
    }

}

extension ServerProcess {
    static let ownerHeaders = [("Authorization", "Bearer owner")]

    /// The provider ids of a looked-up user's `providerUserInfo`, sorted.
    static func providerIDs(_ user: [String: Any]) -> [String] {
        ((user["providerUserInfo"] as? [[String: Any]]) ?? []).compactMap { $0["providerId"] as? String }.sorted()
    }
}
