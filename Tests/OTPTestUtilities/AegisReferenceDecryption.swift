import Foundation

/// Opens an Aegis vault file with Python's `cryptography` (scrypt and AES-GCM over OpenSSL, code
/// nobody here wrote), following Aegis's `docs/decrypt.py`: a slot's key from the credential, the
/// master key from the slot, the content from the master key.
public enum AegisReferenceDecryption {
    public static let script = """
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

    /// The decrypted content of the vault at `path`, opened with a `password` slot or a `raw`
    /// slot (`secret` then the key in hex).
    public static func decrypt(path: String, kind: String, secret: String) async throws -> [UInt8] {
        // Debian's python3: it sees the python3-cryptography package that .ci/install puts in.
        let run = try await ProcessRunner.run(ExternalTool.debianPython3.path(), ["-c", script, path, kind], input: secret)
        guard run.status == 0 else { throw Failure(reason: run.stderr) }
        return run.standardOutput
    }

    public struct Failure: Error, CustomStringConvertible {
        public let reason: String
        public var description: String {
            "python3 with the cryptography package failed (install it: `bash Tests/test.sh` or `apt-get install -y python3-cryptography`): \(reason)"
        }
    }
}
