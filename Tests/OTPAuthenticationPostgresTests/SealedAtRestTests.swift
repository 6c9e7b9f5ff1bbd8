import Foundation
import NIOCore
import OTPCore
import OTPAuthentication
import OTPAuthenticationPostgres
import OTPSealing
import PostgresNIO
import Testing

@Suite("Postgres: sealed secrets")
struct SealedAtRestTests {
    @Test("the database holds only ciphertext with its key id: neither the secret's bytes nor its Base32")
    func noSecretAtRest() async throws {
        try await withStore { store, database in
            let secret = try OTPSecret.random(byteCount: 20)
            let factor = try await enroll(store, secret: secret)
            let rows = try await database.query("SELECT sealed_secret, key_id, factors::text AS whole FROM factors WHERE id = \(factor.id)")
            let row = try #require(rows.first)
            let sealed = Array(try row["sealed_secret"].decode(ByteBuffer.self).readableBytesView)
            let keyID = try row["key_id"].decode(String.self)
            let secretBytes = secret.withUnsafeBytes { Array($0) }
            #expect(sealed.first == 1, "format byte")
            #expect(keyID == store.sealer.currentKeyID.description)
            #expect(sealed[1..<9].map { String(format: "%02x", $0) }.joined() == keyID, "the key id inside the value")
            #expect(!sealed.contains(subsequence: secretBytes))
            let whole = try row["whole"].decode(String.self)
            #expect(!whole.contains(Base32.encode(secretBytes)))
            #expect(!whole.lowercased().contains(secretBytes.map { String(format: "%02x", $0) }.joined()))
            #expect(try await store.factor(id: factor.id)?.secret == secret, "the store opens it again")
        }
    }

    @Test("opening with a key that sealed nothing there is refused, naming the missing key")
    func wrongKeyRefused() async throws {
        try await withStore { store, database in
            try await enroll(store)
            let other = try SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
            let error = await #expect(throws: PostgresAuthStoreError.self) { try await database.open(current: other) }
            guard case .missingSealingKeys(_, let keyIDs, let current) = error else {
                Issue.record("expected missingSealingKeys, got \(String(describing: error))")
                return
            }
            #expect(keyIDs == [database.key.id])
            #expect(current == other.id)
            #expect(error?.description.contains(database.key.id.description) == true)
        }
    }

    @Test("re-sealing moves every secret to the new key; the old key is then unused and may go")
    func reseal() async throws {
        try await withStore { store, database in
            var factors: [FactorRecord] = []
            for index in 0..<5 { factors.append(try await enroll(store, userID: "user-\(index)")) }
            await store.close()
            let newKey = try SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
            let rotating = try await database.open(current: newKey, previous: [database.key])
            // The five factors and the store's code digest key.
            #expect(try await rotating.resealAll(batchSize: 2) == 6)
            #expect(try await rotating.sealingKeyUsage() == [newKey.id: 6])
            #expect(try await rotating.resealAll() == 0)
            await rotating.close()
            let reopened = try await database.open(current: newKey)
            defer { Task { await reopened.close() } }
            for factor in factors {
                #expect(try await reopened.factor(id: factor.id)?.secret == factor.secret)
            }
        }
    }

    @Test("a sealed value copied onto another factor does not open there")
    func copiedSecretRefused() async throws {
        try await withStore { store, database in
            let first = try await enroll(store)
            let second = try await enroll(store)
            try await database.query(
                "UPDATE factors SET sealed_secret = (SELECT sealed_secret FROM factors WHERE id = \(first.id)) WHERE id = \(second.id)")
            let error = await #expect(throws: PostgresAuthStoreError.self) { try await store.factor(id: second.id) }
            guard case .unusableSecret(let recordID, _) = error else {
                Issue.record("expected unusableSecret, got \(String(describing: error))")
                return
            }
            #expect(recordID == second.id)
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<$0 + subsequence.count]) == subsequence }
    }
}
