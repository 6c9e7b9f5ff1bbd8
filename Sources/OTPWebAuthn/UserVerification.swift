/// Whether a ceremony requires the authenticator to verify the user (a PIN, a fingerprint, a
/// face), as `userVerification` in the options says (W3C Web Authentication section 5.8.6).
public enum UserVerification: String, Sendable, Codable {
    /// The response must carry flag UV.
    case required
    /// Asked for, not required: a response without UV is accepted.
    case preferred
    /// Not asked for; UV is ignored.
    case discouraged
}
