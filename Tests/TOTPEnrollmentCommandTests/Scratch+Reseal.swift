import Foundation
import Testing

extension Scratch {
    /// Enrolls a factor, rotates to a new key with `reseal`, and checks that only the new key opens
    /// the database afterwards: the flow is the same on either store.
    func checkReseal() async throws {
        let enrolled = try await enroll(user: "carol", email: "carol@example.com")
        try #require(enrolled.status == 0, "\(enrolled.stderr)")
        let newKey = directory + "/new.key"
        try (String(repeating: "5c", count: 32) + "\n").write(toFile: newKey, atomically: true, encoding: .utf8)
        let refusedKey = "holds secrets sealed under key"

        let refused = try await run(["factors", "--db", database, "--user", "carol", "--key-file", newKey])
        #expect(refused.status == 64, "the new key alone cannot open the old rows: \(refused.stderr)")
        #expect(refused.stderr.contains(refusedKey) && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")

        let resealed = try await run(["reseal", "--db", database, "--key-file", newKey, "--previous-key-file", keyFile])
        #expect(resealed.status == 0, "\(resealed.stderr)")
        #expect(resealed.stdout.contains("Re-sealed 2 secrets under key "), "the factor's secret and the store's code digest key")
        #expect(resealed.stdout.contains("seals nothing any more: it can be retired"))

        let code = try await oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
        let signIn = try await run(["signin", "--db", database, "--user", "carol", "--key-file", newKey, "--code", code])
        #expect(signIn.status == 0, "\(signIn.stderr)")
        let oldKey = try await run(["factors", "--db", database, "--user", "carol", "--key-file", keyFile])
        #expect(oldKey.status == 64 && oldKey.stderr.contains(refusedKey), "\(oldKey.stderr)")
    }
}
