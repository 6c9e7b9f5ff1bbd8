import Foundation
import OTPTestUtilities
import Testing

@testable import OTPVault

@Suite("Aegis vault envelopes")
struct AegisEnvelopeTests {
    typealias Support = VaultTestSupport

    static func sample() throws -> [UInt8] { Array(try ImporterSamples.data("aegis/aegis_encrypted.json")) }

    @Test("Aegis's encrypted test vault opens with its passphrase, to content with its seven entries")
    func aegisSample() throws {
        let envelope = try Support.envelope(try Self.sample())
        #expect(envelope.slots.map(\.kind) == [.password(.aegisCompatible)])
        let opened = try envelope.open(with: Support.passphrase("test"))
        let content = try Support.json(opened.content)
        #expect(content["version"] as? Int == 1)
        #expect((content["entries"] as? [Any])?.count == 7)
        let again = try envelope.open(masterKey: opened.masterKey)
        #expect(again.content == opened.content)
    }

    @Test("a wrong passphrase is the wrong-credential error")
    func wrongPassphrase() throws {
        let envelope = try Support.envelope(try Self.sample())
        let error = #expect(throws: VaultError.wrongCredential(.passphrase)) { try envelope.open(with: Support.passphrase("tesT")) }
        #expect(error?.description == "the passphrase does not open this vault")
    }

    @Test("a plain Aegis export parses to its db object")
    func plainSample() throws {
        guard case .plain(let content) = try AegisEnvelope.parse(Array(try ImporterSamples.data("aegis/aegis_plain.json"))) else {
            Issue.record("the plain sample parsed as encrypted")
            return
        }
        let db = try Support.json(content)
        #expect((db["entries"] as? [Any])?.count == 7)
    }

    enum Tampering: String, CaseIterable, Sendable {
        case database, contentNonce, contentTag, slotKey, slotNonce, slotTag, slotSalt
    }

    @Test("a changed byte anywhere a tag covers is refused with the error that says so", arguments: Tampering.allCases)
    func tampered(_ tampering: Tampering) throws {
        let file = try Support.edited(try Self.sample()) { object in
            var header = object["header"] as! [String: Any]
            var params = header["params"] as! [String: String]
            var slots = header["slots"] as! [[String: Any]]
            var keyParams = slots[0]["key_params"] as! [String: String]
            switch tampering {
            case .database: object["db"] = Support.flippedBase64(object["db"] as! String, at: 40)
            case .contentNonce: params["nonce"] = Support.flippedHex(params["nonce"]!)
            case .contentTag: params["tag"] = Support.flippedHex(params["tag"]!)
            case .slotKey: slots[0]["key"] = Support.flippedHex(slots[0]["key"] as! String)
            case .slotNonce: keyParams["nonce"] = Support.flippedHex(keyParams["nonce"]!)
            case .slotTag: keyParams["tag"] = Support.flippedHex(keyParams["tag"]!)
            case .slotSalt: slots[0]["salt"] = Support.flippedHex(slots[0]["salt"] as! String)
            }
            slots[0]["key_params"] = keyParams
            header["slots"] = slots
            header["params"] = params
            object["header"] = header
        }
        let envelope = try Support.envelope(file)
        let expected: VaultError =
            switch tampering {
            case .database, .contentNonce, .contentTag: .damaged
            // A slot that no longer opens cannot be told from a wrong passphrase.
            case .slotKey, .slotNonce, .slotTag, .slotSalt: .wrongCredential(.passphrase)
            }
        let error = #expect(throws: expected) { try envelope.open(with: Support.passphrase("test")) }
        if expected == .damaged {
            #expect(error?.description == "the vault file is damaged or was modified: its content fails authentication (restore it from a backup)")
        }
    }

    static let outOfRangeParameters: [(Int, Int, Int)] = [
        (1 << 21, 8, 1), (1 << 13, 8, 1), (3 << 14, 8, 1), (1 << 15, 7, 1), (1 << 15, 33, 1), (1 << 15, 8, 0), (1 << 15, 8, 17),
    ]

    @Test(
        "scrypt parameters out of range in a file are refused when it is parsed, before any key is derived",
        arguments: outOfRangeParameters)
    func outOfRange(n: Int, r: Int, p: Int) throws {
        let file = try Support.edited(try Self.sample()) { object in
            var header = object["header"] as! [String: Any]
            var slots = header["slots"] as! [[String: Any]]
            slots[0]["n"] = n
            slots[0]["r"] = r
            slots[0]["p"] = p
            header["slots"] = slots
            object["header"] = header
        }
        #expect(throws: VaultError.scryptParametersOutOfRange(n: n, r: r, p: p)) { try AegisEnvelope.parse(file) }
        #expect(throws: VaultError.scryptParametersOutOfRange(n: n, r: r, p: p)) { try ScryptParameters(n: n, r: r, p: p) }
    }

    @Test("raised costs within the bounds are accepted; the defaults are what the documentation says")
    func parameterBounds() throws {
        #expect(try ScryptParameters(n: 1 << 18, r: 8, p: 1).n == 1 << 18)
        #expect(try ScryptParameters(n: 1 << 20, r: 32, p: 16).p == 16)
        #expect(ScryptParameters.default == (try ScryptParameters(n: 1 << 16, r: 8, p: 1)))
        #expect(ScryptParameters.aegisCompatible == (try ScryptParameters(n: 1 << 15, r: 8, p: 1)))
    }

    @Test("a newer vault version, a huge file, too many slots, an unknown slot type and broken fields are refused")
    func malformed() throws {
        let sample = try Self.sample()
        let newer = try Support.edited(sample) { $0["version"] = 2 }
        let error = #expect(throws: VaultError.unsupportedVersion(2, newest: 1)) { try AegisEnvelope.parse(newer) }
        #expect(error?.description == "the vault file has version 2; this version of totp reads up to 1: upgrade totp")

        let huge = [UInt8](repeating: 0x20, count: AegisEnvelope.maximumFileByteCount + 1)
        #expect(throws: VaultError.fileTooLarge(byteCount: huge.count, limit: AegisEnvelope.maximumFileByteCount)) {
            try AegisEnvelope.parse(huge)
        }

        func editingSlots(_ edit: @escaping (inout [[String: Any]]) -> Void) throws -> [UInt8] {
            try Support.edited(sample) { object in
                var header = object["header"] as! [String: Any]
                var slots = header["slots"] as! [[String: Any]]
                edit(&slots)
                header["slots"] = slots
                object["header"] = header
            }
        }
        let many = try editingSlots { slots in slots = Array(repeating: slots[0], count: 65) }
        #expect(throws: VaultError.tooManySlots(count: 65, limit: 64)) { try AegisEnvelope.parse(many) }
        let unknown = try editingSlots { slots in slots[0]["type"] = 3 }
        #expect(throws: VaultError.unsupportedSlotType(3)) { try AegisEnvelope.parse(unknown) }
        let shortKey = try editingSlots { slots in slots[0]["key"] = "abcd" }
        #expect(throws: VaultError.malformed("header.slots[0].key is not 32 bytes of hexadecimal")) { try AegisEnvelope.parse(shortKey) }
        let noSalt = try editingSlots { slots in slots[0]["salt"] = nil }
        #expect(throws: VaultError.malformed("header.slots[0] is a password slot without n, r, p and salt")) {
            try AegisEnvelope.parse(noSalt)
        }
        let noHeader = try Support.edited(sample) { $0["header"] = nil }
        #expect(throws: VaultError.malformed("header is missing")) { try AegisEnvelope.parse(noHeader) }
        #expect(throws: VaultError.malformed("the file is not valid JSON")) { try AegisEnvelope.parse(Array(sample.prefix(200))) }
        let notBase64 = try Support.edited(sample) { $0["db"] = "not base64!" }
        #expect(throws: VaultError.malformed("db is not Base64")) { try AegisEnvelope.parse(notBase64) }
    }

    @Test("create, seal, parse and open round-trip with a passphrase, in the layout Aegis reads")
    func passphraseRoundTrip() throws {
        let credential = Support.passphrase("correct horse battery staple ✓")
        let (file, masterKey) = try Support.sealedVault(credential)
        let envelope = try Support.envelope(file)
        let opened = try envelope.open(with: credential)
        #expect(opened.content == Support.content)
        #expect(opened.masterKey.withUnsafeBytes { Array($0) } == masterKey.withUnsafeBytes { Array($0) })
        #expect(throws: VaultError.noSlot(for: .keyFile)) {
            try envelope.open(with: .keyFile(VaultKeyFile(path: "k", storage: VaultMasterKey.random().storage)))
        }

        let object = try Support.json(file)
        #expect(object["version"] as? Int == 1)
        let header = try #require(object["header"] as? [String: Any])
        let params = try #require(header["params"] as? [String: String])
        #expect(params["nonce"]?.count == 24 && params["tag"]?.count == 32)
        let slot = try #require((header["slots"] as? [[String: Any]])?.first)
        #expect(slot["type"] as? Int == 1)
        #expect(slot["n"] as? Int == 1 << 14 && slot["r"] as? Int == 8 && slot["p"] as? Int == 1)
        #expect((slot["salt"] as? String)?.count == 64)
        #expect((slot["key"] as? String)?.count == 64)
        #expect(slot["repaired"] as? Bool == true && slot["is_backup"] as? Bool == false)
        #expect((slot["uuid"] as? String)?.count == 36)
        #expect(Data(base64Encoded: try #require(object["db"] as? String))?.count == Support.content.count)
    }

    @Test("create, seal, parse and open round-trip with a key file; the file's mode and contents are checked")
    func keyFileRoundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = try VaultKeyFile.load(path: try Support.keyFile(in: directory))
        let (file, _) = try Support.sealedVault(.keyFile(keyFile))
        let envelope = try Support.envelope(file)
        #expect(envelope.slots.map(\.kind) == [.raw])
        #expect(try envelope.open(with: .keyFile(keyFile)).content == Support.content)
        let other = try VaultKeyFile.load(path: try Support.keyFile(in: directory, name: "other.key"))
        #expect(throws: VaultError.wrongCredential(.keyFile)) { try envelope.open(with: .keyFile(other)) }
        let error = #expect(throws: VaultError.noSlot(for: .passphrase)) { try envelope.open(with: Support.passphrase("test")) }
        #expect(error?.description == "this vault has no passphrase slot: unlock it with its key file")
        let raw = try #require((try Support.json(file)["header"] as? [String: Any])?["slots"] as? [[String: Any]]).first
        #expect(raw?["type"] as? Int == 0 && raw?["n"] == nil && raw?["salt"] == nil)

        let open = try Support.keyFile(in: directory, name: "open.key", mode: 0o644)
        let notPrivate = #expect(throws: VaultError.keyFileNotPrivate(path: open, mode: 0o644)) { try VaultKeyFile.load(path: open) }
        #expect(notPrivate?.description == "key file \(open) has mode 644, which lets others read it: run chmod 600 \(open)")
        let missing = directory.file("missing.key")
        #expect(throws: VaultError.keyFileMissing(path: missing)) { try VaultKeyFile.load(path: missing) }
        let short = directory.file("short.key")
        try Data(String(repeating: "ab", count: 16).utf8).write(to: URL(fileURLWithPath: short))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: short)
        #expect(throws: VaultError.keyFileWrongLength(path: short, byteCount: 16)) { try VaultKeyFile.load(path: short) }
        let garbage = directory.file("garbage.key")
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: garbage))
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: garbage)
        let invalid = #expect(throws: VaultError.keyFileInvalid(path: garbage)) { try VaultKeyFile.load(path: garbage) }
        #expect(invalid?.description.contains("not a key") == false)
    }

    @Test("slots can be added and removed; the last way in cannot be removed")
    func slots() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let passphrase = Support.passphrase("test")
        let keyFile = VaultCredential.keyFile(try VaultKeyFile.load(path: try Support.keyFile(in: directory)))
        let (file, masterKey) = try Support.sealedVault(passphrase)
        let both = try Support.envelope(file).addingSlot(for: keyFile, masterKey: masterKey, parameters: Support.fast)
        let reread = try Support.envelope(try both.sealed(content: Support.content, masterKey: masterKey))
        #expect(reread.slots.count == 2)
        #expect(try reread.open(with: keyFile).content == Support.content)
        #expect(try reread.open(with: passphrase).content == Support.content)

        let keyOnly = try reread.removingSlots(ofKind: .passphrase)
        #expect(keyOnly.slots.map(\.kind) == [.raw])
        #expect(throws: VaultError.noSlot(for: .passphrase)) { try keyOnly.open(with: passphrase) }
        #expect(throws: VaultError.lastSlot) { try keyOnly.removingSlots(ofKind: .keyFile) }

        let stranger = try VaultMasterKey.random()
        #expect(throws: VaultError.wrongMasterKey) { try reread.addingSlot(for: keyFile, masterKey: stranger) }
        #expect(throws: VaultError.wrongMasterKey) { try reread.sealed(content: Support.content, masterKey: stranger) }
        #expect(throws: VaultError.wrongMasterKey) { try reread.open(masterKey: stranger) }
    }

    @Test("every seal uses a fresh nonce: the same content sealed twice differs, and both open")
    func freshNonce() throws {
        let credential = Support.passphrase("test")
        let (envelope, masterKey) = try AegisEnvelope.create(credential: credential, parameters: Support.fast)
        let first = try envelope.sealed(content: Support.content, masterKey: masterKey)
        let second = try envelope.sealed(content: Support.content, masterKey: masterKey)
        #expect(first != second)
        let nonce = { (file: [UInt8]) in ((try Support.json(file)["header"] as? [String: Any])?["params"] as? [String: String])?["nonce"] }
        #expect(try nonce(first) != nonce(second))
        for file in [first, second] {
            #expect(try Support.envelope(file).open(masterKey: masterKey).content == Support.content)
        }
    }

    @Test("credentials and keys never print their bytes")
    func redacted() throws {
        let passphrase = VaultPassphrase(utf8: Array("hunter2".utf8))
        #expect(!"\(passphrase)".contains("hunter2") && !String(reflecting: passphrase).contains("hunter2"))
        #expect("\(try VaultMasterKey.random())" == "VaultMasterKey(redacted)")
    }
}
