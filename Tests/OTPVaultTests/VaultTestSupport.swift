import Foundation
import OTPTestUtilities
import OTPVault

/// What the vault tests share: the cheapest accepted scrypt cost, credentials, key files and
/// edits of a vault file's JSON.
enum VaultTestSupport {
    /// The lowest N accepted, so that round trips stay fast.
    static let fast = try! ScryptParameters(n: 1 << 14, r: 8, p: 1)

    static func passphrase(_ text: String) -> VaultCredential { .passphrase(VaultPassphrase(utf8: Array(text.utf8))) }

    static let content = Array(#"{"version":3,"entries":[],"groups":[],"icons_optimized":true}"#.utf8)

    /// A key file of 64 hexadecimal characters with `mode`, in `directory`.
    static func keyFile(in directory: TemporaryDirectory, name: String = "vault.key", mode: Int = 0o600) throws -> String {
        let path = directory.file(name)
        let hex = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() + "\n"
        try Data(hex.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    static func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
    }

    static func bytes(_ object: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object))
    }

    /// The file with `edit` applied to its JSON object.
    static func edited(_ file: [UInt8], _ edit: (inout [String: Any]) throws -> Void) throws -> [UInt8] {
        var object = try json(file)
        try edit(&object)
        return try bytes(object)
    }

    /// Hexadecimal text with the lowest bit of its first byte flipped.
    static func flippedHex(_ text: String) -> String {
        var digits = Array(text)
        let value = Int(String(digits[1]), radix: 16)! ^ 1
        digits[1] = Character(String(value, radix: 16))
        return String(digits)
    }

    /// Base64 whose decoded bytes have one bit flipped at `index`.
    static func flippedBase64(_ text: String, at index: Int = 0) -> String {
        var data = Data(base64Encoded: text)!
        data[index] ^= 0x01
        return data.base64EncodedString()
    }

    static func sealedVault(_ credential: VaultCredential, content: [UInt8] = content) throws -> (file: [UInt8], masterKey: VaultMasterKey) {
        let (envelope, masterKey) = try AegisEnvelope.create(credential: credential, parameters: fast)
        return (try envelope.sealed(content: content, masterKey: masterKey), masterKey)
    }

    static func envelope(_ file: [UInt8]) throws -> AegisEnvelope {
        guard case .encrypted(let envelope) = try AegisEnvelope.parse(file) else { throw Unexpected.plain }
        return envelope
    }

    enum Unexpected: Error { case plain }
}
