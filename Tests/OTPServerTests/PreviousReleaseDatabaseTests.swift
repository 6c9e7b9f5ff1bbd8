import Foundation
import Logging
import OTPAuthentication
import OTPAuthenticationDatabase
import OTPPostgresTestServer
import OTPSealing
import OTPServer
import OTPTestUtilities
import Testing

/// This release's routes on the SQLite file and the PostgreSQL database an earlier release's
/// `otpkit-server` wrote, opened as the server opens its `--db`, as an operator upgrades in place:
/// Tests/Fixtures/previous-release holds the file, the database as `pg_dump` wrote it, their
/// sealing key and what its `make-fixture.py` made in each through the earlier server's REST API. The schema migrates, and every account, sealed TOTP secret, phone factor,
/// custom claim and refresh token still works. The clock starts a minute after the file was
/// written, so the sessions in it are as live as they were then, whenever the test runs.
@Suite struct PreviousReleaseDatabaseTests {
    struct Fixture: Decodable {
        struct Factor: Decodable {
            let id: String
            let displayName: String?
        }
        struct Ada: Decodable {
            let uid: String
            let email: String
            let password: String
            let totpSecret: String
            let phoneNumber: String
            let factors: [Factor]
        }
        struct Bob: Decodable {
            let uid: String
            let email: String
            let password: String
            let refreshToken: String
        }
        struct Anonymous: Decodable {
            let uid: String
        }
        let writtenBy: String
        let writtenAt: Int64
        let ada: Ada
        let bob: Bob
        let anonymous: Anonymous
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/previous-release")

    enum Backend: String, CaseIterable, Sendable {
        case sqlite, postgres
    }

    @Test(arguments: Backend.allCases)
    func anEarlierReleasesDatabaseMigratesAndEverythingInItStillWorks(_ backend: Backend) async throws {
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: Self.folder.appendingPathComponent(backend.rawValue + ".json")))
        let sealer = try SecretSealer(current: SealingKey(contentsOfFile: Self.folder.appendingPathComponent("sealing.key").path))
        switch backend {
        case .sqlite:
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            // A copy: the migration writes to the file.
            try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("sqlite.db").path, toPath: directory.file("otpkit.sqlite"))
            try await Self.expectEverythingWorks(fixture, at: directory.file("otpkit.sqlite"), sealer: sealer)
        case .postgres:
            try await TestDatabase.withFresh(ownDatabase: true) { database in
                let restored = try await ProcessRunner.run(
                    try ExternalTool.psql.path(),
                    ["--quiet", "--no-psqlrc", "-v", "ON_ERROR_STOP=1", "-f", Self.folder.appendingPathComponent("postgres.sql").path],
                    environment: try database.environment.mapValues { $0 })
                try #require(restored.status == 0, "\(restored)")
                try await Self.expectEverythingWorks(fixture, at: try database.url, sealer: sealer)
            }
        }
    }

    /// Opens `location` as `otpkit-server` opens its `--db`, then checks everything in `fixture`.
    static func expectEverythingWorks(_ fixture: Fixture, at location: String, sealer: SecretSealer) async throws {
        let store = try await DatabaseLocation(location).open(sealer: sealer, poolSize: 2, logger: Logger(label: "test"))
        do {
            try await expectEverythingWorks(fixture, store: store)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    static func expectEverythingWorks(_ fixture: Fixture, store: any AuthStore) async throws {
        try await InProcessServer.with(store: store, clock: ManualAuthClock(fixture.writtenAt + 60)) { server in
            // Ada's two factors, with the ids and names the earlier release gave them.
            let (pending, hints) = try await server.pendingSignIn(fixture.ada.email, password: fixture.ada.password)
            #expect(
                Set(hints.compactMap { $0["mfaEnrollmentId"] as? String }) == Set(fixture.ada.factors.map(\.id)),
                "\(fixture.writtenBy): \(hints)")
            #expect(Set(hints.compactMap { $0["displayName"] as? String }) == ["Authenticator", "Phone"])
            let totpID = try #require(hints.first { $0["totpInfo"] != nil }?["mfaEnrollmentId"] as? String, "\(hints)")
            let phoneID = try #require(hints.first { $0["phoneInfo"] != nil }?["mfaEnrollmentId"] as? String, "\(hints)")

            // The TOTP secret the earlier release sealed opens under the same key.
            let code = try TOTPCodes.code(fixture.ada.totpSecret, step: server.currentStep)
            let signedIn = try await server.post(ServerProcess.v2("mfaSignIn:finalize"), AbuseLimitTests.totpSignIn(pending, totpID, code))
            let idToken = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
            let claims = try await server.verifiedClaims(idToken)
            #expect(claims.userID == fixture.ada.uid && claims.firebase.secondFactorIdentifier == totpID)

            // The phone factor still takes a text message and its code.
            let second = try await server.pendingSignIn(fixture.ada.email, password: fixture.ada.password).credential
            let started = try await server.post(
                ServerProcess.v2("mfaSignIn:start"), #"{"mfaPendingCredential":"\#(second)","mfaEnrollmentId":"\#(phoneID)","phoneSignInInfo":{}}"#)
            let sessionInfo = try #require((started.json["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(started.body)")
            let (smsCode, number) = try await server.sentCode(sessionInfo)
            #expect(number == fixture.ada.phoneNumber)
            let byPhone = try await server.post(
                ServerProcess.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(second)","phoneVerificationInfo":{"sessionInfo":"\#(sessionInfo)","code":"\#(smsCode)"}}"#)
            #expect(byPhone.json["idToken"] is String, "\(byPhone.body)")

            // Bob's refresh token, issued by the earlier server, refreshes; his claims come along.
            let refreshed = try await server.refresh(fixture.bob.refreshToken)
            let bobToken = try #require(refreshed.json["id_token"] as? String, "\(refreshed.body)")
            let bobClaims = try await server.verifiedClaims(bobToken)
            #expect(bobClaims.userID == fixture.bob.uid)
            #expect(bobClaims.customClaims["role"] == .string("auditor"), "\(bobClaims.customClaims)")
            let bobSignIn = try await server.post(
                ServerProcess.signInPath, #"{"email":"\#(fixture.bob.email)","password":"\#(fixture.bob.password)","returnSecureToken":true}"#)
            #expect(bobSignIn.json["localId"] as? String == fixture.bob.uid, "\(bobSignIn.body)")

            let anonymous = try await server.adminUser(fixture.anonymous.uid)
            #expect(anonymous["localId"] as? String == fixture.anonymous.uid && anonymous["email"] == nil, "\(anonymous)")
        }
    }
}
