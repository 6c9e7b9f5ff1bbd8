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

    static let digestScript = """
        import sys, hmac, hashlib
        for line in sys.stdin:
            key, context, code = (bytes.fromhex(field) for field in line.split())
            print(hmac.new(key, b"OTPKit code digest v1\\0" + context + b"\\0" + code, hashlib.sha256).hexdigest())
        """

    @Test("code digests are HMAC-SHA256 over the documented message, as Python's hmac computes it; every key of the ring gives one")
    func codeDigests() async throws {
        var lines: [String] = []
        var expected: [String] = []
        for index in 0..<100 {
            let keyBytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let code = "k3m9q7xw2\(index % 10)"
            let context = "recovery code\u{0}user-\(index)-é"
            let digest = try SecretSealer(current: SealingKey(bytes: keyBytes)).codeDigest(code, context: context)
            lines.append([hex(keyBytes), hex(Array(context.utf8)), hex(Array(code.utf8))].joined(separator: " "))
            expected.append(hex(digest))
        }
        let output = try await runPython(input: lines.joined(separator: "\n") + "\n", script: Self.digestScript)
        #expect(output.split(separator: "\n").map(String.init) == expected)

        let old = try SealingKey.random()
        let current = try SealingKey.random()
        let ring = try SecretSealer(current: current, previous: [old])
        let digests = try ring.codeDigests("abc", context: "x")
        #expect(digests.count == 2)
        #expect(digests.first == (try SecretSealer(current: current).codeDigest("abc", context: "x")), "the current key's first")
        #expect(digests.last == (try SecretSealer(current: old).codeDigest("abc", context: "x")))
        #expect(try ring.codeDigest("abc", context: "y") != digests[0], "another context, another digest")
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func runPython(input: String, script: String = Self.script) async throws -> String {
        // Debian's python3: it sees the python3-cryptography package that .ci/install puts in,
        // which a python3 earlier on PATH (pyenv's) need not.
        let run = try await ProcessRunner.run(ExternalTool.debianPython3.path(), ["-c", script], input: input)
        try #require(
            run.status == 0,
            "python3 with the cryptography package failed (install it: `bash Tests/test.sh` or `apt-get install -y python3-cryptography`): \(run.stderr)"
        )
        return run.stdout
    }
}
