import Foundation
import OTPCore
import OTPAuthentication
import OTPAuthenticationSQLite
import OTPSealing
import OTPTestUtilities
import SQLiteNIO
import Testing

@Suite("Secrets sealed at rest in SQLite")
struct SealedAtRestTests {
    @Test("no secret appears in the database, its WAL or its shared memory, as raw bytes or Base32")
    func noPlaintext() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        var secrets: [OTPSecret] = []
        for index in 0..<30 {
            let secret = try OTPSecret.random(for: [.sha1, .sha256, .sha512][index % 3])
            secrets.append(secret)
            if index % 2 == 0 {
                try await enroll(store, id: "factor-\(index)", userID: "user-\(index)", secret: secret, algorithm: .sha1)
            } else {
                try await store.insertPendingEnrollment(
                    PendingEnrollmentRecord(
                        id: "pending-only-\(index)", userID: "user", secret: secret, algorithm: .sha1, digits: 6, period: 30,
                        createdAt: 0, deadline: 10_000_000_000
                    ))
            }
        }
        // While open, recent rows live in the -wal file; after closing, in the database itself.
        try checkAbsent(secrets, in: database.fileContents(), when: "open")
        try await store.close()
        try checkAbsent(secrets, in: database.fileContents(), when: "closed")
    }

    func checkAbsent(_ secrets: [OTPSecret], in contents: [UInt8], when: String) throws {
        try #require(contents.count > 4096)
        // Positive control: the search does find what is stored in the clear.
        try #require(contents.contains(subsequence: Array("pending-only-1".utf8)), "the search finds stored ids (\(when))")
        for secret in secrets {
            let raw = secret.withUnsafeBytes { Array($0) }
            #expect(!contents.contains(subsequence: raw), "raw secret bytes found in the files (\(when))")
            #expect(!contents.contains(subsequence: Array(secret.base32.utf8)), "Base32 secret found (\(when))")
            #expect(!contents.contains(subsequence: Array(secret.base32.lowercased().utf8)), "lowercase Base32 secret found (\(when))")
            // A prefix longer than any accidental match still must not appear.
            #expect(!contents.contains(subsequence: Array(raw.prefix(8))), "8 secret bytes found (\(when))")
        }
    }

    @Test("a sealed secret copied onto another enrollment's row fails to open, naming the row")
    func copiedRowFails() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let a = try await enroll(store, id: "enrollment-a", userID: "alice")
        let b = try await enroll(store, id: "enrollment-b", userID: "bob")
        try await store.close()

        try await RawDatabase.with(database.path) { connection in
            _ = try await connection.query(
                "UPDATE factors SET sealed_secret = (SELECT sealed_secret FROM factors WHERE id = ?) WHERE id = ?",
                [.text(a.id), .text(b.id)]
            )
        }

        let reopened = try await database.open()
        #expect(try await reopened.factor(id: a.id) == a)
        let error = await #expect(throws: SQLiteAuthStoreError.unusableSecret(recordID: b.id, .authenticationFailed)) {
            try await reopened.factor(id: b.id)
        }
        #expect(
            error?.description
                == "the sealed secret of \(b.id) cannot be opened: sealed secret failed authentication: it was altered or copied from another enrollment"
        )
        try await reopened.close()
    }

    @Test("a wrong key is refused at start-up, naming both key ids; the right key still opens")
    func wrongKeyAtStartUp() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        try await enroll(store)
        try await store.close()

        let wrong = try SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
        let error = await #expect(throws: SQLiteAuthStoreError.self) { try await database.open(current: wrong) }
        #expect(error == .missingSealingKeys(path: database.path, keyIDs: [database.key.id], currentKeyID: wrong.id))
        #expect(
            error?.description == """
                enrollment database \(database.path) holds secrets sealed under key \(database.key.id), but the key given is \(wrong.id): \
                pass the key they were sealed with (as the current key, or as a previous key to re-seal)
                """)
        try await database.open().close()
    }

    @Test("a tampered row is found at start-up, not at the first sign-in")
    func tamperedAtStartUp() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let factor = try await enroll(store, id: "only")
        try await store.close()
        try await RawDatabase.with(database.path) { connection in
            let row = try #require(try await connection.query("SELECT sealed_secret FROM factors").first)
            var sealed = Array(try #require(row.column("sealed_secret")?.blob).readableBytesView)
            sealed[sealed.count - 1] ^= 0x01
            _ = try await connection.query("UPDATE factors SET sealed_secret = ?", [.blob(ByteBuffer(bytes: sealed))])
        }
        await #expect(throws: SQLiteAuthStoreError.unusableSecret(recordID: factor.id, .authenticationFailed)) {
            try await database.open()
        }
    }

    @Test("rotation: old rows open under a previous key, re-sealing moves them, then the old key is not needed")
    func rotation() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        var enrolled: [FactorRecord] = []
        for index in 0..<25 { enrolled.append(try await enroll(store, id: "f\(index)", userID: "u\(index % 5)")) }
        let pending = PendingEnrollmentRecord(
            id: "p", userID: "u", secret: try .random(for: .sha1), algorithm: .sha1, digits: 6, period: 30, createdAt: 0, deadline: 10_000_000_000
        )
        try await store.insertPendingEnrollment(pending)
        try await store.close()

        let newKey = try SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
        let rotating = try await database.open(previous: [database.key], current: newKey)
        #expect(try await rotating.sealingKeyUsage() == [database.key.id: 27], "26 secrets and the store's code digest key")
        #expect(try await rotating.factor(id: "f3") == enrolled[3])
        #expect(try await rotating.resealAll(batchSize: 7) == 27)
        #expect(try await rotating.sealingKeyUsage() == [newKey.id: 27])
        #expect(try await rotating.resealAll() == 0)
        try await rotating.close()

        let rotated = try await database.open(current: newKey)
        for record in enrolled { #expect(try await rotated.factor(id: record.id) == record) }
        #expect(try await rotated.pendingEnrollment(id: "p")?.secret == pending.secret)
        #expect(try await rotated.pendingEnrollment(id: "p") == pending)
        try await rotated.close()
        await #expect(throws: SQLiteAuthStoreError.missingSealingKeys(path: database.path, keyIDs: [newKey.id], currentKeyID: database.key.id)) {
            try await database.open()
        }
    }

    static func randomKey() throws -> SealingKey {
        try SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    /// Writes `secret` sealed under `key` into factor `id`'s row while its `key_id` column keeps
    /// naming `columnKey`: what a half-applied manual fix or another tool leaves behind.
    func writeMismatchedRow(_ path: String, id: String, secret: OTPSecret, sealedUnder key: SealingKey, columnKey: SealingKey) async throws {
        let sealed = try SecretSealer(current: key).seal(secret, enrollmentID: id)
        try await RawDatabase.with(path) { connection in
            _ = try await connection.query(
                "UPDATE factors SET sealed_secret = ?, key_id = ? WHERE id = ?",
                [.blob(ByteBuffer(bytes: sealed.bytes)), .text(columnKey.id.description), .text(id)]
            )
        }
    }

    @Test(
        "re-sealing finishes when a row's key_id column names an old key but its value is already under the current one, and counts only rewritten rows",
        .hangGuard)
    func resealColumnBehindValue() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let moved = try await enroll(store, id: "moved", userID: "alice")
        let stale = try await enroll(store, id: "stale", userID: "bob")
        try await store.close()

        let newKey = try Self.randomKey()
        let rotating = try await database.open(previous: [database.key], current: newKey)
        // Written while the store is open, as another process would.
        try await writeMismatchedRow(database.path, id: moved.id, secret: moved.secret, sealedUnder: newKey, columnKey: database.key)
        #expect(
            try await rotating.resealAll() == 2, "only the rows still sealed under the old key (a factor, the store's code digest key) are rewritten")
        #expect(try await rotating.sealingKeyUsage() == [newKey.id: 3])
        #expect(try await rotating.resealAll() == 0)
        #expect(try await rotating.factor(id: moved.id) == moved)
        #expect(try await rotating.factor(id: stale.id) == stale)
        try await rotating.close()
        let rotated = try await database.open(current: newKey)
        #expect(try await rotated.factor(id: moved.id) == moved)
        try await rotated.close()
    }

    @Test("opening makes a key_id column agree with its sealed value, and a value under a missing key is refused whatever its column says")
    func startUpChecksValuesNotColumns() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let first = try await enroll(store, id: "first", userID: "alice")
        _ = try await enroll(store, id: "second", userID: "bob")
        try await store.close()

        let newKey = try Self.randomKey()
        try await writeMismatchedRow(database.path, id: first.id, secret: first.secret, sealedUnder: newKey, columnKey: database.key)
        let reopened = try await database.open(previous: [database.key], current: newKey)
        #expect(
            try await reopened.sealingKeyUsage() == [newKey.id: 1, database.key.id: 2],
            "usage counts the key each value names (and the store's code digest key)")
        #expect(try await reopened.factor(id: first.id) == first)
        try await reopened.close()

        // The column names the current key; the value is sealed under a key nobody passed.
        let unknown = try Self.randomKey()
        try await writeMismatchedRow(database.path, id: first.id, secret: first.secret, sealedUnder: unknown, columnKey: newKey)
        await #expect(throws: SQLiteAuthStoreError.missingSealingKeys(path: database.path, keyIDs: [unknown.id], currentKeyID: newKey.id)) {
            try await database.open(previous: [database.key], current: newKey)
        }
    }
}
