import Foundation
import OTPCore
import OTPSealing
import OTPTestUtilities
import Testing

/// Opens OTPKit's sealed values with Python's `cryptography` package (AESGCM over OpenSSL, code
/// nobody here wrote), and checks the key-id derivation with Python's hmac module. It pins the
/// documented layout, so a future store in another language can read what this one writes.
@Suite("Cross-check of sealed secrets with Python cryptography")
struct PythonCrossCheckTests {
    static let script = """
        import sys, hmac, hashlib
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        for line in sys.stdin:
            key, enrollment, sealed = line.split()
            key, sealed = bytes.fromhex(key), bytes.fromhex(sealed)
            key_id = hmac.new(key, b"OTPKit sealing key id v1", hashlib.sha256).digest()[:8]
            assert sealed[0] == 1 and sealed[1:9] == key_id, "header"
            aad = b"OTPKit sealed secret\\0" + sealed[0:9] + bytes.fromhex(enrollment)
            print(AESGCM(key).decrypt(sealed[9:21], sealed[21:], aad).hex())
        """

    @Test("200 sealed secrets open in Python to the same bytes")
    func pythonOpens() async throws {
        var lines: [String] = []
        var expected: [String] = []
        for index in 0..<200 {
            let keyBytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let secret = try OTPSecret.random(byteCount: [10, 20, 32, 64][index % 4])
            let enrollment = "enrollment-\(index)-é"
            let sealed = try SecretSealer(current: SealingKey(bytes: keyBytes)).seal(secret, enrollmentID: enrollment)
            lines.append([hex(keyBytes), hex(Array(enrollment.utf8)), hex(sealed.bytes)].joined(separator: " "))
            expected.append(secret.withUnsafeBytes { hex(Array($0)) })
        }
        let output = try await runPython(input: lines.joined(separator: "\n") + "\n")
        #expect(output.split(separator: "\n").map(String.init) == expected)
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func runPython(input: String) async throws -> String {
        let run = try await ProcessRunner.run(ExternalTool.python3.path(), ["-c", Self.script], input: input)
        try #require(
            run.status == 0,
            "python3 with the cryptography package failed (install it: `bash Tests/test.sh` or `apt-get install -y python3-cryptography`): \(run.stderr)"
        )
        return run.stdout
    }
}
