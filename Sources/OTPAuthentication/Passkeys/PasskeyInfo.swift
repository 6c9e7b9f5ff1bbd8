/// A registered passkey as its owner and administrators see it (Firebase's `PasskeyInfo`, with
/// what OTPKit records beside): no key.
public struct PasskeyInfo: Sendable, Hashable {
    public var credentialID: [UInt8]
    public var name: String
    public var createdAt: Int64
    public var lastUsedAt: Int64?
    /// Whether it can be synced between the user's devices (flag BE).
    public var isBackupEligible: Bool
    /// Whether it was backed up at its last use (flag BS).
    public var isBackedUp: Bool

    init(_ record: PasskeyRecord) {
        credentialID = record.credentialID
        name = record.name
        createdAt = record.createdAt
        lastUsedAt = record.lastUsedAt
        isBackupEligible = record.isBackupEligible
        isBackedUp = record.isBackedUp
    }
}
