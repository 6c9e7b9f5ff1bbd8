import Foundation
import OTPTestUtilities

/// A throwaway vault in a temporary folder, with a key file and the environment that points
/// `totp` at them (and away from the tester's own vault and secrets).
struct VaultFixture {
    let directory: TemporaryDirectory
    let vaultPath: String
    let keyFile: String

    init() throws {
        directory = try TemporaryDirectory(prefix: "otpkit-vault")
        vaultPath = directory.file("vault.json")
        keyFile = directory.file("vault.key")
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        FileManager.default.createFile(atPath: keyFile, contents: key, attributes: [.posixPermissions: 0o600])
    }

    /// The environment of a key-file invocation.
    var keyFileEnvironment: [String: String?] {
        ["TOTP_VAULT": vaultPath, "TOTP_VAULT_KEY_FILE": keyFile, "TOTP_VAULT_PASSPHRASE": nil, "XDG_DATA_HOME": directory.path]
    }

    /// The environment of a passphrase invocation (the documented, unsafe variable).
    func passphraseEnvironment(_ passphrase: String) -> [String: String?] {
        ["TOTP_VAULT": vaultPath, "TOTP_VAULT_KEY_FILE": nil, "TOTP_VAULT_PASSPHRASE": passphrase, "XDG_DATA_HOME": directory.path]
    }

    /// The environment without any credential: only an unlocked session opens the vault.
    var bareEnvironment: [String: String?] {
        ["TOTP_VAULT": vaultPath, "TOTP_VAULT_KEY_FILE": nil, "TOTP_VAULT_PASSPHRASE": nil, "XDG_DATA_HOME": directory.path]
    }

    func run(_ arguments: [String], input: String? = nil, environment: [String: String?]? = nil) async throws -> ProcessOutput {
        try await TOTPProcess.run(arguments, input: input, environment: environment ?? keyFileEnvironment)
    }

    var vaultBytes: Data? { FileManager.default.contents(atPath: vaultPath) }

    func remove() { directory.remove() }
}
