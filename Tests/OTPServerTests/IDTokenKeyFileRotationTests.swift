import Foundation
import JWTKit
import OTPSealing
import OTPServer
import OTPTestUtilities
import Synchronization
import Testing

/// The signing key file across rotations: the earlier one-key format, which keys a rotation
/// keeps and drops, rotations racing on one file, and an issuer taking up a rotated file.
@Suite struct IDTokenKeyFileRotationTests {
    /// A signing key file in format 1, the only format before rotation (one key, written on a
    /// server's first start by code rotation left unchanged), and the sealing key it is sealed
    /// under: a file already on an operator's disk must keep loading.
    static let formatOneSealingKey = "54bc92839bebfe887a88014171f943ea1949bb9a82d6eee0e9b6e07026ea8a57"
    static let formatOneKid = "27368c5e3faf6fe4"
    static let formatOneFile = """
        {"format":"otpkit-server ID token key 1","kid":"27368c5e3faf6fe4","wrappedKey":"011d407cc0e9cf320280642ef0c743bc\
        cbb0534748328e68771ffab5c56b4e97b14aa7ed91dfad4ec79c3bd85d2f5ecc17ae0b7c8c0fe49a894df234cf642566625410839a","non\
        ce":"75a88a5a130826936150d3bb","ciphertext":"54f5193f249ee2cdd1a2a65bcfa28af3fd1d5ef38ed8549bc14c4049454a3212b8d\
        3377d1789c5229f67b1ad4aaeb052c17b82519f1b931be9b81f3ef211b578bdd014630b2e2234a9461685d8d4c1f0ab3527dcc58d77ecd06\
        3c0fa4e853554b9fbba4143432ad8e639237361bc622df48c6330168e9d1e7218ececcca4888dbed5f8b4a455adeb1118713dcd1892856f8\
        bf5c0d2e0dcc9f72412efe4896a037e4968a3273a03349ef25076d6515b025db9515bdca75076e2bcc5312b0200502bd73cb8433f9ee301a\
        c3114ee0622172e594308abaaaaf4d17f77937fde2d76ca12704b8680e734e057790ea78375ac189ea425a26e33efefb91b65eddda8bca08\
        8b6ab3f8628f78237e334d342866794baf73e54dfb777a9cb652ee9b7b1a6ed3743434343289bb2cbe61faa595947f85a66235beed5cf136\
        f751896e768735e7c30f384d6d447a3ed978f4dcbbe5e0d2fce87b126e512f96c81db026f81e9990e530ddae53ddd88d241ea470a42e7ea5\
        66286fd2dd91e90a383f64deaf3d8d726b62f42cf8bab707d5e625443ce66969a0e2c62f55c79ee80f2ea7375d4af41d12f1a516c8e3b47c\
        59f4806b2d9fa8f2745b09719a02abd1b392c597efe23f32826b259fe4a84bc5df676053f17fbe25f7d54f510c1bf63368dc7c84bf89abd6\
        b914d7b9333392ae1c8b88ce22125f93d506c6c2e74a9d6e28725eb8d6948cfcb1eb75b8886d283e5ee69bbfd9b59b2c84170b49cd0f5a7a\
        615ab0dccf5ecdd12e701cb904d0f975fc3ee220a8e8d87ab31abce7cf5b6339b22dc4a9b167bd51fb183275b316d8215c5db6a503356924\
        55b6549407083320f1a449ef25c728fb4eb22606e4a54add61beb56ae0be1457354f2a65ad05b22baebe03522ac5b03ddc47dd3701abfcf0\
        4ebb2f107edca9113346198de56698fffc569bfef0aab96c2d7321db4d2455b7ff889b615b6e595638f913f69c3c470f0db8703efe7fe9fe\
        a109a825afc6aa88f49c8a8ca091a32db9ed67735c2193c0a8dac025058b196c16beebef027fdc3d1204b433e4df27323ff56b0cb0048c7b\
        672110da4ed5d173755379c2d8ebfc71cbff111780a868a653431d9551e7f0ee1d3f3041b0686376d37ad7c83ba1e5c9aaeacb8ae9eb79a2\
        ad2745f8946674b5b55fc694ebc0ff324f6e19c07d65cd6562e8330d5ae97db36707872f545c50e9ca532af96071e3ca79ce928de38c715b\
        fbcfdd3076237f1c6f9dbe68807308492d559661d960e088021502c0e04ad47bd9d6739d35e0d5603c0462839028706672ffcdfb571918ee\
        65fd3fc231681da9b8884fb144c94e6d751f6e2e2e848dc27d5cc7809896859b5e8ee86a41f7ff52719e651ea70dcfc91522982b2a8a8111\
        6d6c22cea6a16b498c89d8da17e658e89ae45fe9f204242eb81390f71fb4e590bca6f689c5903a50c1c8a3cd345b795091a0945d10697c7c\
        f7dd2f8b92b5508809d65b13d6d2c79d52066ba6d902b31ee9d8a81246a5d6e5e5655deb87b46df85a24e913c1384af896e1200400d5184e\
        321876ff3779b5e55ce8253cfa22f86035b1ecc9a00dab00a8e313fa655564b0cdd52469f5a9f16772b2c662075a5ec659f71fdf955f7aff\
        41bad8bbbf809ee45b26692ec865294d3ff79ceb01bf1b94f9237d626ed7baab37b595be50904d67c42651863de36a7f1a227c7896399c4a\
        7053a245efd8790a3cdcae6405537090873c3e3da6afaacef20db82e10ee213916dc85bee9dcbacd9dfcd25258b59986910aa0347dfe3f5a\
        90aff735709a3ad765b91eef40a74f730ef7101c533f6bff36ffc9be422c29b028bff911d28684836364e206d92e99b9fd8fdef623b9765f\
        67ff98777aa88d8ab4c68eed97a63d91ccc5c3c4bcc6a794fc4d76d549276576dfebbe6cd5395e01c3fef0c13fddba8ad7f341920e26ab90\
        7d6b24288be9777e478c40163c6737658248631f3ca28a5e2982b1acf7d83d3b518978448697d1ead0e1be13e23579f12aedaf7d8425bd26\
        aee8fb612f400efb20c38bbb279f7d0c41dad7ad4f15066723afc53c03543ff53fa28e7b09c3d9206d1c37707bf5e8dc38358db4c10ef2d5\
        7eb4040f168877309bff7b2834998c58e3e58738ca2cab010d453b4c3847afdcdbfd1164b2adb1654b0d3ed2f491f99fc55dae90b06dced7\
        69adcffe36b8868bba33d9e72ddacbf322477110b362f182b111bc484dd99eb00434a795385e3b9865bd4e4c74c4508bf696194544cfc584\
        335875ad66ed356ceb18ff5d2d760dce64dc26bb96df09d16fb24a3bef1919c28fa78735064abd7e852c43e0a3cf60c81c417f9a9235dd89\
        06b8b5ed53113f56d4e99093dc90984372afefbe336","tag":"483898f5cdea0e5d8a1f19426caf6e8a"}
        """

    /// `directory`'s signing key file holding ``formatOneFile``, and the sealer that opens it.
    static func formatOneKeyFile(in directory: TemporaryDirectory) throws -> (path: String, sealer: SecretSealer) {
        let keyPath = directory.file("sealing.key")
        try formatOneSealingKey.write(toFile: keyPath, atomically: true, encoding: .utf8)
        let path = directory.file("otpkit.sqlite.signing-key")
        try formatOneFile.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, try SecretSealer(current: SealingKey(contentsOfFile: keyPath)))
    }

    static func kid(of token: String) -> String? {
        guard let header = ClientEndpointTests.base64URLDecode(token.split(separator: ".")[0]) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])?["kid"] as? String
    }

    static func format(of path: String) throws -> String? {
        (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])?["format"] as? String
    }

    @Test func aFormatOneFileLoadsAndItsKeyOutlivesTheRotation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, sealer) = try Self.formatOneKeyFile(in: directory)
        let loaded = try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer)
        #expect(loaded.keys.map(\.kid) == [Self.formatOneKid])
        #expect(loaded.signing.retiredAt == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.formatOneFile, "loading rewrote the file")

        let clock = IDTokenIssuerTests.Clock()
        let before = await IDTokenIssuer(projectID: "demo-a", signingKeys: loaded, clock: clock.read)
        let old = try await before.sign(IDTokenIssuerTests.claims(before, at: clock.read()))
        #expect(Self.kid(of: old) == Self.formatOneKid)

        let rotated = try IDTokenKeyFile.rotate(path: path, sealer: sealer, now: clock.read())
        #expect(rotated.keys.count == 2)
        #expect(rotated.signing.kid != Self.formatOneKid && rotated.signing.retiredAt == nil)
        #expect(rotated.keys[1].kid == Self.formatOneKid && rotated.keys[1].retiredAt == clock.read())
        #expect(try Self.format(of: path) == "otpkit-server ID token keys 2")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("PRIVATE KEY"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["otpkit.sqlite.signing-key", "sealing.key"])

        let reloaded = try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer)
        #expect(reloaded.keys.map(\.kid) == rotated.keys.map(\.kid))
        #expect(reloaded.keys.map(\.retiredAt) == [nil, clock.read()])
        let after = await IDTokenIssuer(projectID: "demo-a", signingKeys: reloaded, clock: clock.read)
        #expect(try await after.verify(old).subject == "user-1")
        let fresh = try await after.sign(IDTokenIssuerTests.claims(after, at: clock.read()))
        #expect(Self.kid(of: fresh) == rotated.signing.kid)
        // The issuer of before the rotation does not know the new key, and says so.
        await #expect(throws: IDTokenError.unknownKey) { try await before.verify(fresh) }
        let keySet = try JSONSerialization.jsonObject(with: Data(after.keySetJSON().utf8)) as? [String: [[String: Any]]]
        #expect(Set((keySet?["keys"] ?? []).compactMap { $0["kid"] as? String }) == Set(rotated.keys.map(\.kid)))
    }

    @Test func aRotationDropsOnlyKeysRetiredForTheRetention() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("keys")
        let sealer = try SecretSealer(current: SealingKey.random())
        let first = try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer).signing.kid
        let start: Int64 = 1_800_000_000
        let retention = IDTokenKeyFile.defaultRetention
        #expect(retention >= 3600, "a key must outlive every token it signed")
        let second = try IDTokenKeyFile.rotate(path: path, sealer: sealer, now: start).signing.kid
        // One second short of the retention, the first key stays.
        let third = try IDTokenKeyFile.rotate(path: path, sealer: sealer, now: start + retention - 1)
        #expect(third.keys.map(\.kid) == [third.signing.kid, second, first])
        // At the retention it goes; the key retired a second ago stays.
        let fourth = try IDTokenKeyFile.rotate(path: path, sealer: sealer, now: start + retention)
        #expect(fourth.keys.map(\.kid) == [fourth.signing.kid, third.signing.kid, second])
        // A retention of zero still keeps the key this rotation retires.
        let fifth = try IDTokenKeyFile.rotate(path: path, sealer: sealer, now: start + retention + 1, retention: 0)
        #expect(fifth.keys.map(\.kid) == [fifth.signing.kid, fourth.signing.kid])
        #expect(try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer).keys.map(\.kid) == fifth.keys.map(\.kid))
    }

    @Test func rotationsAtOnceKeepEachOthersKeys() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("keys")
        let sealer = try SecretSealer(current: SealingKey.random())
        let first = try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer).signing.kid
        let made = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try IDTokenKeyFile.rotate(path: path, sealer: sealer, now: Int64(Date().timeIntervalSince1970)).signing.kid
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let kept = try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer).keys.map(\.kid)
        #expect(Set(kept) == Set(made + [first]), "a rotation lost another's key")
        #expect(kept.count == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["keys"])
    }

    @Test func anIssuerTakesUpARotationWhenATokenNamesTheNewKey() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("keys")
        let sealer = try SecretSealer(current: SealingKey.random())
        let (keys, monitor) = try IDTokenKeyFileMonitor.start(path: path, sealer: sealer, logger: .init(label: "test"))
        let clock = IDTokenIssuerTests.Clock()
        let issuer = await IDTokenIssuer(projectID: "demo-a", signingKeys: keys, clock: clock.read, refresh: { monitor.changedKeys() })
        #expect(monitor.changedKeys() == nil, "an unchanged file counts as changed")
        #expect(await issuer.refreshKeys() == false)

        // The signing key under an unknown kid: JWTKit alone would try its default key and accept it.
        let impostor = await IDTokenIssuer(
            projectID: "demo-a", signingKey: IDTokenSigningKey(kid: "0123456789abcdef", privateKey: keys.signing.privateKey), clock: clock.read)
        let renamed = try await impostor.sign(IDTokenIssuerTests.claims(impostor, at: clock.read()))
        await #expect(throws: IDTokenError.unknownKey) { try await issuer.verify(renamed) }
        // And with no kid at all.
        let defaultKey = JWTKeyCollection()
        guard case .rsa(let rsa) = keys.signing.privateKey else {
            Issue.record("a new key file's key is not RS256")
            return
        }
        await defaultKey.add(rsa: rsa, digestAlgorithm: .sha256)
        let unnamed = try await defaultKey.sign(IDTokenIssuerTests.claims(issuer, at: clock.read()))
        #expect(Self.kid(of: unnamed) == nil)
        await #expect(throws: IDTokenError.invalid) { try await issuer.verify(unnamed) }

        // Another process rotates the file and signs with the new key.
        let rotated = try IDTokenKeyFile.rotate(path: path, sealer: sealer, now: clock.read())
        let other = await IDTokenIssuer(projectID: "demo-a", signingKeys: rotated, clock: clock.read)
        let fromOther = try await other.sign(IDTokenIssuerTests.claims(other, at: clock.read()))
        #expect(try await issuer.verify(fromOther).subject == "user-1")
        #expect(issuer.signingKeys.keys.map(\.kid) == rotated.keys.map(\.kid))
        let ours = try await issuer.sign(IDTokenIssuerTests.claims(issuer, at: clock.read()))
        #expect(Self.kid(of: ours) == rotated.signing.kid)

        // A file broken meanwhile leaves the keys in use.
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        #expect(monitor.changedKeys() == nil)
        #expect(await issuer.refreshKeys() == false)
        #expect(try await issuer.verify(ours).subject == "user-1")
    }

    @Test func aRotationThatCannotWorkChangesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sealer = try SecretSealer(current: SealingKey.random())
        let missing = directory.file("missing")
        #expect(throws: IDTokenKeyFileError.missing(path: missing)) { try IDTokenKeyFile.rotate(path: missing, sealer: sealer, now: 0) }
        #expect(!FileManager.default.fileExists(atPath: missing))

        let path = directory.file("keys")
        _ = try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let stranger = try SecretSealer(current: SealingKey.random())
        #expect(throws: IDTokenKeyFileError.wrongSealingKey(path: path)) { try IDTokenKeyFile.rotate(path: path, sealer: stranger, now: 0) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)

        let changed = Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"tag\":\"", with: "\"tag\":\"00").utf8)
        try changed.write(to: URL(fileURLWithPath: path))
        #expect(throws: IDTokenKeyFileError.malformed(path: path)) { try IDTokenKeyFile.rotate(path: path, sealer: sealer, now: 0) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == changed)

        let folder = directory.file("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect {
            try IDTokenKeyFile.rotate(path: folder, sealer: sealer, now: 0)
        } throws: { error in
            guard case .unreadable(let path, _) = error as? IDTokenKeyFileError else { return false }
            return path == folder
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["folder", "keys"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
