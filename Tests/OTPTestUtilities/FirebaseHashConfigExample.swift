/// The project parameters of firebase/scrypt's README (its known values are hashed under them), as
/// the Firebase console shows a project's "Password hash parameters".
public enum FirebaseHashConfigExample {
    /// The project's signer key, in Base64.
    public static let signerKey = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
    /// The console's text of them.
    public static let consoleText = """
        hash_config {
          algorithm: SCRYPT,
          base64_signer_key: \(signerKey),
          base64_salt_separator: Bw==,
          rounds: 8,
          mem_cost: 14,
        }
        """
}
