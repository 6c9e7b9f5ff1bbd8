import Foundation
import OTPTestUtilities
import Testing

@testable import OTPVault

/// Opens vaults that ``AegisEnvelope/sealed(content:masterKey:)`` writes with Python's
/// `cryptography` (scrypt and AES-GCM over OpenSSL, code nobody here wrote), following Aegis's
/// `docs/decrypt.py`: a slot's key from the credential, the master key from the slot, the content
/// from the master key.
@Suite("Cross-check of vault files with Python cryptography")
struct AegisPythonCrossCheckTests {
    static let content = Array(
        #"{"version":3,"entries":[{"type":"totp","uuid":"01234567-89ab-4cde-8f01-23456789abcd","name":"Mason","issuer":"Deno","note":"é ✓","info":{"secret":"4SJHB4GSD43FZBAI7C2HLRJGPQ","algo":"SHA1","digits":6,"period":30}}],"groups":[]}"#
            .utf8)

    @Test("a passphrase vault, default and raised costs, opens in Python to the same content")
    func passphrase() async throws {
        for parameters in [VaultTestSupport.fast, ScryptParameters.default, try ScryptParameters(n: 1 << 15, r: 16, p: 2)] {
            let passphrase = "pässword \(parameters.n)"
            let (envelope, masterKey) = try AegisEnvelope.create(
                credential: VaultTestSupport.passphrase(passphrase), parameters: parameters)
            let file = try envelope.sealed(content: Self.content, masterKey: masterKey)
            #expect(try await decrypt(file, kind: "password", secret: passphrase) == Self.content)
        }
    }

    @Test("a vault with a key-file slot beside the passphrase slot opens in Python with either")
    func keyFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyPath = try VaultTestSupport.keyFile(in: directory)
        let keyHex = try String(contentsOfFile: keyPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let (envelope, masterKey) = try AegisEnvelope.create(credential: VaultTestSupport.passphrase("test"), parameters: VaultTestSupport.fast)
        let both = try envelope.addingSlot(for: .keyFile(VaultKeyFile.load(path: keyPath)), masterKey: masterKey)
        let file = try both.sealed(content: Self.content, masterKey: masterKey)
        #expect(try await decrypt(file, kind: "raw", secret: keyHex) == Self.content)
        #expect(try await decrypt(file, kind: "password", secret: "test") == Self.content)
    }

    func decrypt(_ file: [UInt8], kind: String, secret: String) async throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("vault.json")
        try Data(file).write(to: URL(fileURLWithPath: path))
        return try await AegisReferenceDecryption.decrypt(path: path, kind: kind, secret: secret)
    }
}
