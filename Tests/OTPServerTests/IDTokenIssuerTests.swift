import JWTKit
import Foundation
import OTPAuthentication
import OTPSealing
import OTPServer
import OTPTestUtilities
import Synchronization
import Testing

@Suite struct IDTokenIssuerTests {
    final class Clock: Sendable {
        let now = Atomic<Int64>(1_800_000_000)
        var read: @Sendable () -> Int64 { { self.now.load(ordering: .relaxed) } }
    }

    static func claims(_ issuer: IDTokenIssuer, uid: String = "user-1", at time: Int64) -> IDTokenClaims {
        IDTokenClaims(
            issuer: issuer.issuer, audience: issuer.projectID, subject: uid, userID: uid, authTime: time, issuedAt: time,
            expiresAt: time + issuer.lifetime, email: nil, emailVerified: nil, providerID: "anonymous",
            firebase: .init(identities: [:], signInProvider: "anonymous"))
    }

    @Test func expiredForeignAndUnsignedTokensAreRefused() async throws {
        let clock = Clock()
        let key = try IDTokenSigningKey.generate()
        let issuer = await IDTokenIssuer(projectID: "demo-a", signingKey: key, clock: clock.read)
        let token = try await issuer.sign(Self.claims(issuer, at: clock.read()))
        #expect(try await issuer.verify(token).subject == "user-1")

        clock.now.store(clock.read() + 3599, ordering: .relaxed)
        #expect(try await issuer.verify(token).subject == "user-1")
        clock.now.store(clock.read() + 1, ordering: .relaxed)
        await #expect(throws: IDTokenError.expired) { try await issuer.verify(token) }

        // The same key for another project: signature fine, audience not.
        let other = await IDTokenIssuer(projectID: "demo-b", signingKey: key, clock: clock.read)
        let foreign = try await other.sign(Self.claims(other, at: clock.read()))
        await #expect(throws: IDTokenError.wrongProject) { try await issuer.verify(foreign) }

        // Another key under the same kid, and alg none.
        let impostor = await IDTokenIssuer(
            projectID: "demo-a", signingKey: IDTokenSigningKey(kid: key.kid, privateKey: try IDTokenSigningKey.generate().privateKey),
            clock: clock.read)
        let forged = try await impostor.sign(Self.claims(impostor, at: clock.read()))
        await #expect(throws: IDTokenError.invalid) { try await issuer.verify(forged) }
        let payload = forged.split(separator: ".")[1]
        let unsigned = ClientEndpointTests.base64URLEncode(#"{"alg":"none","typ":"JWT"}"#) + "." + payload + "."
        await #expect(throws: IDTokenError.invalid) { try await issuer.verify(unsigned) }
    }

    /// A key source that answers a new set once, as the key file's monitor does, and holds its
    /// first answer until released: the moment a second refresh used to find nothing new.
    final class HeldRefresh: Sendable {
        let keys: IDTokenSigningKeySet
        let answered = Atomic<Bool>(false)
        let entered = Atomic<Bool>(false)
        /// Set when asked again while the first answer is held: a refresh that did not wait.
        let askedAgain = Atomic<Bool>(false)
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)

        init(_ keys: IDTokenSigningKeySet) { self.keys = keys }

        func next() async -> IDTokenSigningKeySet? {
            guard !answered.exchange(true, ordering: .relaxed) else {
                askedAgain.store(true, ordering: .relaxed)
                return nil
            }
            await withCheckedContinuation { continuation in
                release.withLock { $0 = continuation }
                entered.store(true, ordering: .relaxed)
            }
            return keys
        }
    }

    @Test("a token of a rotated key arriving while another refresh installs the new keys waits for them and verifies", .hangGuard)
    func concurrentRefreshIsJoined() async throws {
        let clock = Clock()
        let old = try IDTokenSigningKey.generate(algorithm: .es256)
        let new = try IDTokenSigningKey.generate(algorithm: .es256)
        let source = HeldRefresh(IDTokenSigningKeySet(keys: [new, old]))
        let issuer = await IDTokenIssuer(
            projectID: "demo-a", signingKeys: IDTokenSigningKeySet(old), clock: clock.read, refresh: { await source.next() })
        let other = await IDTokenIssuer(projectID: "demo-a", signingKeys: IDTokenSigningKeySet(new), clock: clock.read)
        let token = try await other.sign(Self.claims(other, at: clock.read()))

        let periodic = Task { await issuer.refreshKeys() }
        while !source.entered.load(ordering: .relaxed) { await Task.yield() }
        let verifying = Task { try await issuer.verify(token) }
        // The verification's own refresh finds the periodic one under way and waits for it; one
        // that asked the source again instead would get nothing and refuse the token.
        for _ in 0..<10_000 where !source.askedAgain.load(ordering: .relaxed) { await Task.yield() }
        source.release.withLock { $0?.resume() }
        let askedAgain = source.askedAgain.load(ordering: .relaxed)
        #expect(!askedAgain)
        #expect(await periodic.value)
        #expect(try await verifying.value.subject == "user-1")
    }

    @Test func customClaimsAreTopLevelAndNeverReplaceTheTokensOwn() async throws {
        let clock = Clock()
        let issuer = await IDTokenIssuer(projectID: "demo-a", signingKey: try IDTokenSigningKey.generate(), clock: clock.read)
        var claims = Self.claims(issuer, at: clock.read())
        claims.email = "ada@example.com"
        claims.customClaims = [
            "role": .string("editor"), "level": .integer(3), "ratio": .number(0.5), "tags": .array([.string("a"), .null]),
            "nested": .object(["ok": .bool(true)]), "email": .string("spoof@example.com"), "sub": .string("someone-else"),
        ]
        let token = try await issuer.sign(claims)
        let payload = try #require(ClientEndpointTests.base64URLDecode(token.split(separator: ".")[1]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any], "\(payload)")
        #expect(object["role"] as? String == "editor" && object["level"] as? Int == 3 && object["ratio"] as? Double == 0.5, "\(payload)")
        #expect((object["nested"] as? [String: Any])?["ok"] as? Bool == true, "\(payload)")
        #expect(object["email"] as? String == "ada@example.com", "a custom claim replaced the token's own: \(payload)")
        #expect(object["sub"] as? String == "user-1", "a custom claim replaced the token's own: \(payload)")
        #expect(payload.components(separatedBy: "\"email\"").count == 2, "one email claim: \(payload)")
        let verified = try await issuer.verify(token)
        #expect(verified.email == "ada@example.com" && verified.subject == "user-1")
        #expect(verified.customClaims == claims.customClaims.filter { $0.key != "email" && $0.key != "sub" })
    }

    @Test func keyFileIsMadeOnceSealedAndReloaded() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("otpkit.sqlite.signing-key")
        let sealer = try SecretSealer(current: SealingKey.random())
        let first = try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer)
        let second = try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer)
        #expect(first.signing.kid == second.signing.kid)
        #expect(first.signing.privateKey.pemRepresentation == second.signing.privateKey.pemRepresentation)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let contents = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!contents.contains("PRIVATE KEY"))

        // Another sealing key does not open it, and a rotated one does through `previous`.
        let stranger = try SecretSealer(current: SealingKey.random())
        #expect(throws: IDTokenKeyFileError.wrongSealingKey(path: path)) { try IDTokenKeyFile.loadOrCreate(path: path, sealer: stranger) }
        let rotated = try SecretSealer(current: SealingKey.random(), previous: [sealer.currentKey])
        #expect(try IDTokenKeyFile.loadOrCreate(path: path, sealer: rotated).signing.kid == first.signing.kid)

        // A changed file is refused, not replaced.
        try contents.replacingOccurrences(of: "\"tag\":\"", with: "\"tag\":\"00").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: IDTokenKeyFileError.malformed(path: path)) { try IDTokenKeyFile.loadOrCreate(path: path, sealer: sealer) }
    }
}
