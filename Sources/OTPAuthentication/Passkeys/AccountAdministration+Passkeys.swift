internal import OTPSealing

extension AccountAdministration {
    /// The passkeys of account `id` that sign in alone, oldest first (what `accounts:lookup` lists
    /// as `passkeyInfo`; passkey second factors are among its second factors).
    public func passkeys(accountID id: String) async throws(AuthError) -> [PasskeyInfo] {
        try await service.passkeys(userID: id).filter { $0.enrollmentID == nil }.map(PasskeyInfo.init)
    }

    /// Removes the passkey `credentialID` of account `id`: whether it had one.
    public func removePasskey(accountID id: String, credentialID: [UInt8]) async throws(AuthError) -> Bool {
        let event = service.auditEvent(.passkeyRemoved, userID: id, actor: .system, factorID: Base64URL.encode(credentialID))
        let removed = try await service.storeCall("removing a passkey", recording: event) {
            try await service.store.removePasskey(credentialID: credentialID, userID: id)
        }
        if removed { service.logger.info("passkey removed by an administrator", metadata: ["user": "\(id)"]) }
        return removed
    }
}
