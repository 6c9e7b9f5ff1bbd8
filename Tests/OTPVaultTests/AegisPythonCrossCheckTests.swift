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
    static let script = """
        import sys, json, base64
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

        path, kind = sys.argv[1], sys.argv[2]
        secret = sys.stdin.buffer.read()
        with open(path, "rb") as f:
            vault = json.load(f)
        assert vault["version"] == 1, "version"
        master_key = None
        for slot in vault["header"]["slots"]:
            if kind == "password" and slot["type"] == 1:
                key = Scrypt(salt=bytes.fromhex(slot["salt"]), length=32, n=slot["n"], r=slot["r"], p=slot["p"]).derive(secret)
            elif kind == "raw" and slot["type"] == 0:
                key = bytes.fromhex(secret.decode())
            else:
                continue
            params = slot["key_params"]
            try:
                master_key = AESGCM(key).decrypt(bytes.fromhex(params["nonce"]), bytes.fromhex(slot["key"]) + bytes.fromhex(params["tag"]), None)
                break
            except InvalidTag:
                pass
        if master_key is None:
            sys.exit("no slot opened")
        params = vault["header"]["params"]
        content = AESGCM(master_key).decrypt(bytes.fromhex(params["nonce"]), base64.b64decode(vault["db"]) + bytes.fromhex(params["tag"]), None)
        sys.stdout.buffer.write(content)
        """

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
        // Debian's python3: it sees the python3-cryptography package that .ci/install puts in.
        let run = try await ProcessRunner.run(ExternalTool.debianPython3.path(), ["-c", Self.script, path, kind], input: secret)
        try #require(
            run.status == 0,
            "python3 with the cryptography package failed (install it: `bash Tests/test.sh` or `apt-get install -y python3-cryptography`): \(run.stderr)"
        )
        return run.standardOutput
    }
}
