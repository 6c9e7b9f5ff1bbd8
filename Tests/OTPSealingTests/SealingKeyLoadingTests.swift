import Foundation
import OTPSealing
import Testing

@Suite("Loading the operator's sealing key")
struct SealingKeyLoadingTests {
    static let keyBytes: [UInt8] = (0..<32).map { UInt8(($0 * 37 + 11) % 256) }
    static let keyHex = keyBytes.map { String(format: "%02x", $0) }.joined()
    static let expectedID = try! SealingKey(bytes: keyBytes).id

    static func temporaryFile(_ contents: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "otpkit-key-\(UUID().uuidString)"
        try Data(contents).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "a key file of 64 hex characters, with or without a newline, in either case",
        arguments: [
            keyHex, keyHex + "\n", "  " + keyHex.uppercased() + "\r\n",
        ])
    func hexFile(text: String) throws {
        let path = try Self.temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SealingKey(contentsOfFile: path).id == Self.expectedID)
    }

    @Test("a key file of 32 raw bytes, even when they end in a newline byte")
    func rawFile() throws {
        var bytes = Self.keyBytes
        bytes[31] = 0x0A
        let path = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SealingKey(contentsOfFile: path).id == SealingKey(bytes: bytes).id)
    }

    @Test("a hex key of the wrong length says how many bytes it has")
    func shortHex() throws {
        let path = try Self.temporaryFile(Array(String(Self.keyHex.prefix(32)).utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: SealingError.invalidKeyLength(16)) { try SealingKey(contentsOfFile: path) }
        #expect(error?.description == "sealing key is 16 bytes: AES-256 needs exactly 32 (create one with `openssl rand -hex 32`)")
    }

    @Test(
        "a key file holding something else names the file and never echoes its contents",
        arguments: [
            "not a key at all", "", String(repeating: "z", count: 64),
        ])
    func garbageFile(text: String) throws {
        let path = try Self.temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: SealingError.invalidKeyEncoding(source: path)) { try SealingKey(contentsOfFile: path) }
        #expect(
            error?.description
                == "sealing key in \(path) is neither 32 raw bytes nor 64 hexadecimal characters (create one with `openssl rand -hex 32`)")
    }

    @Test("a missing key file is a clear error")
    func missingFile() {
        let error = #expect(throws: SealingError.self) { try SealingKey(contentsOfFile: "/nonexistent/otpkit.key") }
        #expect(error == .unreadableKeyFile(path: "/nonexistent/otpkit.key", reason: "No such file or directory"))
    }

    @Test("a huge file is not taken for a key")
    func hugeFile() throws {
        let path = try Self.temporaryFile(Array(repeating: 0x41, count: 10_000))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SealingError.unreadableKeyFile(path: path, reason: "larger than a key file can be")) {
            try SealingKey(contentsOfFile: path)
        }
    }

    @Test("the environment variable holds 64 hex characters; unset or empty is a missing key")
    func environment() throws {
        let name = "OTPKIT_TEST_KEY_\(UInt32.random(in: 0...UInt32.max))"
        #expect(throws: SealingError.missingKey(environmentVariable: name)) { try SealingKey(environmentVariable: name) }
        setenv(name, "", 1)
        #expect(throws: SealingError.missingKey(environmentVariable: name)) { try SealingKey(environmentVariable: name) }
        setenv(name, Self.keyHex + "\n", 1)
        #expect(try SealingKey(environmentVariable: name).id == Self.expectedID)
        setenv(name, String(Self.keyHex.prefix(62)), 1)
        #expect(throws: SealingError.invalidKeyLength(31)) { try SealingKey(environmentVariable: name) }
        // 32 raw characters are not accepted from the environment: only hex is unambiguous there.
        setenv(name, String(repeating: "k", count: 32), 1)
        #expect(throws: SealingError.invalidKeyEncoding(source: "$\(name)")) { try SealingKey(environmentVariable: name) }
        unsetenv(name)
    }

    @Test("load prefers the file and falls back to the environment variable")
    func loadOrder() throws {
        let name = "OTPKIT_TEST_KEY_\(UInt32.random(in: 0...UInt32.max))"
        setenv(name, String(repeating: "ab", count: 32), 1)
        defer { unsetenv(name) }
        let path = try Self.temporaryFile(Array(Self.keyHex.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SealingKey.load(file: path, environmentVariable: name).id == Self.expectedID)
        #expect(try SealingKey.load(file: nil, environmentVariable: name).id == SealingKey(bytes: Array(repeating: 0xAB, count: 32)).id)
    }

    @Test("raw keys of the wrong length are refused", arguments: [0, 16, 31, 33, 64])
    func wrongLength(count: Int) {
        #expect(throws: SealingError.invalidKeyLength(count)) { try SealingKey(bytes: Array(repeating: 1, count: count)) }
    }
}

@Suite("Generating a sealing key on request")
struct SealingKeyGenerationTests {
    @Test("a generated key file is 64 hex characters, owner-only, reads back to the same key, and is never overwritten")
    func generate() throws {
        let path = NSTemporaryDirectory() + "otpkit-generated-\(UUID().uuidString).key"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let key = try SealingKey.generate(writingTo: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.count == 65 && text.hasSuffix("\n"))
        #expect(text.dropLast().allSatisfy { $0.isHexDigit && !$0.isUppercase })
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(try SealingKey(contentsOfFile: path).id == key.id)
        #expect(throws: SealingError.unwritableKeyFile(path: path, reason: "it already exists (a key is never overwritten)")) {
            try SealingKey.generate(writingTo: path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        let other = NSTemporaryDirectory() + "otpkit-generated-\(UUID().uuidString).key"
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(try SealingKey.generate(writingTo: other).id != key.id)
    }
}
