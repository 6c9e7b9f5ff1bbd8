/// What a security event recorded: the kinds of ``AuditEvent``.
///
/// The raw values are what the stores keep and what the audit's REST path and its JSON lines
/// show; they never change once released.
public enum AuditEventKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An account was created: a sign-up (by any first factor) or an administrator's creation.
    case accountCreated = "account.created"
    /// An account was imported by an administrator (`accounts:batchCreate`, `totp account import`).
    case accountImported = "account.imported"
    /// A session started: a first factor alone, or a first factor and a second one
    /// (``AuditEvent/factorKind`` names it). A sign-in with a recovery code is
    /// ``recoveryCodeUsed`` instead.
    case signedIn = "sign_in"
    /// A sign-in was refused after a wrong password or a wrong code (``AuditEvent/reason`` says
    /// which), or because its account or factor was locked.
    case signInFailed = "sign_in.failed"
    /// A sign-in completed with a recovery code, which is now spent.
    case recoveryCodeUsed = "recovery_code.used"
    /// A session ended by its user (sign-out).
    case signedOut = "sign_out"
    /// Every session of a user ended at once (an administrator, or a revocation).
    case sessionsRevoked = "sessions.revoked"
    /// A second factor was enrolled (``AuditEvent/factorKind``, ``AuditEvent/factorID``).
    case factorEnrolled = "factor.enrolled"
    /// A second factor was withdrawn.
    case factorRemoved = "factor.removed"
    /// A second factor was given another name (``AuditEvent/factorKind``, ``AuditEvent/factorID``).
    case factorRenamed = "factor.renamed"
    /// A user's recovery codes were replaced by new ones.
    case recoveryCodesGenerated = "recovery_codes.generated"
    /// A passkey that signs in alone was registered.
    case passkeyAdded = "passkey.added"
    /// A passkey was renamed.
    case passkeyRenamed = "passkey.renamed"
    /// A passkey that signs in alone was removed.
    case passkeyRemoved = "passkey.removed"
    /// A password was set or changed by its user, or by an administrator.
    case passwordChanged = "password.changed"
    /// A password was reset through an emailed link.
    case passwordReset = "password.reset"
    /// An account's email address changed.
    case emailChanged = "email.changed"
    /// An account's email address was verified through an emailed link.
    case emailVerified = "email.verified"
    /// A first-factor provider (``AuditEvent/provider``) was linked to an account.
    case providerLinked = "provider.linked"
    /// A first-factor provider was unlinked from an account.
    case providerUnlinked = "provider.unlinked"
    /// An administrator disabled an account.
    case accountDisabled = "account.disabled"
    /// An administrator enabled an account.
    case accountEnabled = "account.enabled"
    /// An account was deleted, by its user or an administrator.
    case accountDeleted = "account.deleted"
}
