package import OTPAuthentication

extension StoredColumns {
    package static let passkey =
        "credential_id, user_id, user_handle, name, public_key, sign_count, user_verified, backup_eligible, backed_up, aaguid, created_at, last_used_at, enrollment_id"
    package static let passkeyChallenge = "digest, ceremony, user_id, user_handle, expires_at"
}

extension StoredRow {
    /// A row of ``StoredColumns/passkey``; a record named by its user in errors (a credential id
    /// is no secret, but it is long and says nothing to an operator).
    package func passkeyRecord() throws(Failure) -> PasskeyRecord {
        let userID = try text("user_id", of: "a passkey")
        let id = "a passkey of \(userID)"
        let signCount = try integer("sign_count", of: id)
        guard let count = UInt32(exactly: signCount) else { throw invalidRecord(recordID: id, detail: "sign count \(signCount) out of range") }
        return PasskeyRecord(
            credentialID: try bytes("credential_id", of: id), userID: userID, userHandle: try bytes("user_handle", of: id),
            name: try text("name", of: id), publicKey: try bytes("public_key", of: id), signCount: count,
            isUserVerified: try boolean("user_verified", of: id), isBackupEligible: try boolean("backup_eligible", of: id),
            isBackedUp: try boolean("backed_up", of: id), aaguid: try bytes("aaguid", of: id), createdAt: try integer("created_at", of: id),
            lastUsedAt: try optionalInteger("last_used_at", of: id), enrollmentID: try optionalText("enrollment_id", of: id))
    }

    /// A row of ``StoredColumns/passkeyChallenge``.
    package func passkeyChallengeRecord() throws(Failure) -> PasskeyChallengeRecord {
        let ceremonyName = try text("ceremony", of: "a passkey challenge")
        guard let ceremony = PasskeyCeremony(rawValue: ceremonyName) else {
            throw invalidRecord(recordID: "a passkey challenge", detail: "unknown ceremony \(ceremonyName)")
        }
        let id = "a passkey challenge of a \(ceremonyName)"
        return PasskeyChallengeRecord(
            digest: try bytes("digest", of: id), ceremony: ceremony, userID: try optionalText("user_id", of: id),
            userHandle: try optionalBytes("user_handle", of: id), expiresAt: try integer("expires_at", of: id))
    }
}
