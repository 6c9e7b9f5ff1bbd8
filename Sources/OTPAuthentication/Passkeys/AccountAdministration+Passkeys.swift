extension AccountAdministration {
    /// The passkeys of account `id`, oldest first (what `accounts:lookup` lists as `passkeyInfo`).
    public func passkeys(accountID id: String) async throws(AuthError) -> [PasskeyInfo] {
        try await service.storeCall("reading passkeys") { try await service.store.passkeys(userID: id) }.map(PasskeyInfo.init)
    }

    /// Removes the passkey `credentialID` of account `id`: whether it had one.
    public func removePasskey(accountID id: String, credentialID: [UInt8]) async throws(AuthError) -> Bool {
        let removed = try await service.storeCall("removing a passkey") {
            try await service.store.removePasskey(credentialID: credentialID, userID: id)
        }
        if removed { service.logger.info("passkey removed by an administrator", metadata: ["user": "\(id)"]) }
        return removed
    }
}
