import Foundation
import OTPCore
import OTPAuthentication
import OTPAuthenticationPostgres
import OTPSealing
import OTPTestUtilities
import Testing

/// Two OS processes, two service instances' stores, one database: what several servers do.
@Suite("PostgreSQL store across processes", .serialized)
struct MultiProcessTests {
    @Test("two processes verify the same valid codes at the same moment: exactly one acceptance per code")
    func replayAcrossProcesses() async throws {
        try await withStore { store, database in
            let factor = try await enroll(store, id: "shared-factor")
            let rounds = 200
            let firstStep = UInt64(TOTP.currentUnixTime() / 30)
            // Both helpers start each round at the same wall-clock millisecond, a second from now.
            let start = Int64(TOTP.currentUnixTime()) * 1000 + 1500
            let arguments = ["race", "postgres", factor.id, String(firstStep), String(rounds), String(start)]
            var environment: [String: String?] = try database.environment.mapValues { $0 }
            environment["OTPKIT_SEALING_KEY"] = database.keyHex
            let helper = try BuiltProduct.path("OTPAuthenticationStoreTestHelper")
            async let first = ProcessRunner.run(helper, arguments, environment: environment)
            async let second = ProcessRunner.run(helper, arguments, environment: environment)
            let runs = try await [first, second]
            var outcomes: [UInt64: [String]] = [:]
            for (index, run) in runs.enumerated() {
                try #require(run.status == 0, "helper \(index) failed: \(run)")
                for line in run.stdout.split(separator: "\n") {
                    let parts = line.split(separator: " ")
                    try #require(parts.count == 2, "helper \(index) printed \(line.debugDescription)")
                    outcomes[try #require(UInt64(parts[1])), default: []].append(String(parts[0]))
                }
            }
            try #require(outcomes.count == rounds)
            var decidedByCompareAndSet = 0
            for (step, results) in outcomes.sorted(by: { $0.key < $1.key }) {
                #expect(results.count == 2)
                #expect(results.filter { $0 == "accepted" }.count == 1, "step \(step): \(results)")
                if results.contains("replay-by-cas") { decidedByCompareAndSet += 1 }
            }
            print("PostgreSQL replay race: \(rounds) codes, \(decidedByCompareAndSet) decided by the conditional UPDATE, the rest by the read")
            #expect(decidedByCompareAndSet > 0, "the processes never raced; the test proved nothing")
            #expect(try await store.factor(id: factor.id)?.lastAcceptedStep == firstStep + UInt64(rounds) - 1)
        }
    }

    @Test(
        "two processes spend the same recovery codes, or complete the same phone verifications, at the same moment: exactly one completes each",
        arguments: ["recovery", "phone"])
    func spendAcrossProcesses(kind: String) async throws {
        try await withStore { store, database in
            let rounds = 100
            let now = TOTP.currentUnixTime()
            // The digests the helper offers (its spendDigest).
            let digests = (0..<rounds).map { Array("spend-digest-\($0)".utf8) }
            if kind == "recovery" {
                try await store.replaceRecoveryCodes(userID: "racer", digests: digests)
            } else {
                let enrollmentCode = Array("enrollment".utf8)
                try await store.insertPhoneVerification(
                    PhoneVerificationRecord(
                        id: "enrollment", purpose: .enrollment, userID: "racer", enrollmentID: nil, credentialID: nil, phoneNumber: "+15555550100",
                        codeDigest: enrollmentCode, createdAt: now, expiresAt: now + 600, failedAttempts: 0))
                let enrolled = try await store.finalizePhoneEnrollment(
                    verificationID: "enrollment", userID: "racer", codeDigests: [enrollmentCode], at: now, maximumAttempts: 5,
                    factorID: "phone-factor",
                    displayName: nil, maximumFactorCount: 5)
                guard case .enrolled = enrolled else {
                    Issue.record("the phone factor was not enrolled: \(enrolled)")
                    return
                }
                for round in 0..<rounds {
                    try await store.insertPhoneVerification(
                        PhoneVerificationRecord(
                            id: "verification-\(round)", purpose: .signIn, userID: "racer", enrollmentID: "phone-factor",
                            credentialID: "cred-\(round)",
                            phoneNumber: "+15555550100", codeDigest: digests[round], createdAt: now, expiresAt: now + 600, failedAttempts: 0))
                }
            }
            let start = Int64(TOTP.currentUnixTime()) * 1000 + 2500
            var environment: [String: String?] = try database.environment.mapValues { $0 }
            environment["OTPKIT_SEALING_KEY"] = database.keyHex
            let helper = try BuiltProduct.path("OTPAuthenticationStoreTestHelper")
            let arguments = ["spend", "postgres", kind, String(rounds), String(start)]
            async let first = ProcessRunner.run(helper, arguments + ["0"], environment: environment)
            async let second = ProcessRunner.run(helper, arguments + ["1"], environment: environment)
            let runs = try await [first, second]
            var outcomes: [Int: [String]] = [:]
            for (index, run) in runs.enumerated() {
                try #require(run.status == 0, "helper \(index) failed: \(run)")
                for line in run.stdout.split(separator: "\n") {
                    let parts = line.split(separator: " ", maxSplits: 2)
                    try #require(parts.count >= 2, "helper \(index) printed \(line.debugDescription)")
                    outcomes[try #require(Int(parts[1])), default: []].append(String(parts[0]))
                }
            }
            try #require(outcomes.count == rounds)
            for (round, results) in outcomes.sorted(by: { $0.key < $1.key }) {
                #expect(results.sorted() == ["completed", "refused"], "round \(round): \(results)")
            }
            if kind == "recovery" {
                #expect(try await store.recoveryCodeCount(userID: "racer") == 0)
            }
        }
    }

    @Test("kill -9 of a process mid-stream of enrollments and sign-ins: every acknowledged write is in the database")
    func crashSafety() async throws {
        try await withStore { store, database in
            var environment: [String: String?] = try database.environment.mapValues { $0 }
            environment["OTPKIT_SEALING_KEY"] = database.keyHex
            let scratch = try TemporaryDirectory(prefix: "otpkit-pg-churn")
            defer { scratch.remove() }
            var acknowledged: [String] = []
            for round in 0..<3 {
                let ack = scratch.file("ack-\(round)")
                acknowledged += try await ProcessRunner.killMidStream(
                    try BuiltProduct.path("OTPAuthenticationStoreTestHelper"), ["churn", "postgres", ack], environment: environment,
                    acknowledgements: ack, count: 40 + Int.random(in: 0...60))
            }
            let enrolled = try await ProcessRunner.expectAcknowledgedChurn(acknowledged) { id in
                let factor = try await store.factor(id: id)
                return (factor != nil, factor?.lastAcceptedStep)
            }
            #expect(enrolled > 0)
            // The server let go of the killed processes' sessions: a new store works as before.
            #expect(try await enroll(store, id: "after-the-crash", userID: "someone-new").id == "after-the-crash")
        }
    }
}

/// A PostgreSQL cluster of one test's own (`.ci/postgres`), for faults that would break every other
/// test on the shared one.
struct OwnCluster {
    let environment: [String: String]
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.ci/postgres").path

    static func start() async throws -> OwnCluster {
        let run = try await ProcessRunner.run("/bin/bash", [script, "start"])
        try #require(run.status == 0, "the cluster did not start: \(run.stderr)")
        var environment: [String: String] = [:]
        for word in run.stdout.split(whereSeparator: \.isWhitespace) where word.contains("=") {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            environment[parts[0]] = parts[1]
        }
        try #require(environment["PGHOST"] != nil && environment["OTPKIT_PGDATA"] != nil, "no settings in \(run.stdout)")
        return OwnCluster(environment: environment)
    }

    /// `pg_ctl restart -m immediate`: the server dies as in a crash, then starts and recovers.
    func restart() async throws {
        let run = try await ProcessRunner.run("/bin/bash", [Self.script, "restart", environment["OTPKIT_PGDATA"] ?? ""])
        try #require(run.status == 0, "the cluster did not restart: \(run.stderr)")
    }

    func stop() async {
        _ = try? await ProcessRunner.run("/bin/bash", [Self.script, "stop", environment["OTPKIT_PGDATA"] ?? ""])
    }
}

extension MultiProcessTests {
    @Test("PostgreSQL restarted (immediate) under two writing processes: every acknowledged write is there, failures are typed, both recover")
    func serverRestart() async throws {
        let cluster = try await OwnCluster.start()
        do {
            try await restartUnderLoad(cluster)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    private func restartUnderLoad(_ cluster: OwnCluster) async throws {
        let keyBytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let sealer = try SecretSealer(current: SealingKey(bytes: keyBytes))
        // Migrated before the writers start, so that they race on writes, not on the schema.
        let store = try await PostgresAuthStore.open(environment: cluster.environment, sealer: sealer, poolSize: 2)
        var environment: [String: String?] = cluster.environment.mapValues { $0 }
        environment["OTPKIT_SEALING_KEY"] = keyBytes.map { String(format: "%02x", $0) }.joined()
        let scratch = try TemporaryDirectory(prefix: "otpkit-pg-restart")
        defer { scratch.remove() }
        let helper = try BuiltProduct.path("OTPAuthenticationStoreTestHelper")
        let acks = [scratch.file("ack-0"), scratch.file("ack-1")]
        let stop = scratch.file("stop")
        async let first = ProcessRunner.run(helper, ["resilient-churn", "postgres", acks[0], stop], environment: environment)
        async let second = ProcessRunner.run(helper, ["resilient-churn", "postgres", acks[1], stop], environment: environment)
        // Stopped whatever happens, so that a failed expectation does not wait for the writers' own limit.
        defer { _ = FileManager.default.createFile(atPath: stop, contents: nil) }
        try await waitUntil("both writers write") { try acks.allSatisfy { try Self.successes(in: $0).count >= 20 } }
        try await cluster.restart()
        let restarted = Int64(Date().timeIntervalSince1970 * 1000)
        do {
            try await waitUntil("both writers write again after the restart") {
                try acks.allSatisfy { try Self.successes(in: $0).contains { (Int64($0[1]) ?? 0) > restarted } }
            }
        } catch {
            // What each writer last wrote tells a writer that hangs from one that keeps failing.
            for (index, ack) in acks.enumerated() {
                print("writer \(index), restarted at \(restarted), last wrote: \(try ProcessRunner.acknowledgedLines(ack).suffix(5))")
            }
            throw error
        }
        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        let runs = try await [first, second]

        var errors = 0
        for (index, run) in runs.enumerated() {
            try #require(run.status == 0, "writer \(index) failed: \(run)")
            let lines = try ProcessRunner.acknowledgedLines(acks[index])
            #expect(
                lines.filter { $0.hasPrefix("refused ") }.isEmpty,
                "a write was applied twice or refused: \(lines.filter { $0.hasPrefix("refused ") })")
            for line in lines where line.hasPrefix("error ") {
                errors += 1
                #expect(line.contains("PostgresAuthStoreError: "), "an untyped failure: \(line)")
            }
            for parts in try Self.successes(in: acks[index]) {
                let factor = try await store.factor(id: parts[3])
                #expect(factor != nil, "acknowledged \(parts) is missing")
                if parts[2] == "step", let step = UInt64(parts[4]) {
                    #expect((factor?.lastAcceptedStep ?? 0) >= step, "acknowledged \(parts) is lost")
                }
            }
        }
        print("PostgreSQL restart: \(errors) typed failures across both writers while the server was down")
        await store.close()
    }

    /// The acknowledged writes in `file`, each split into its words: `ok`, the time, what, the id…
    private static func successes(in file: String) throws -> [[String]] {
        try ProcessRunner.acknowledgedLines(file).filter { $0.hasPrefix("ok ") }.map { $0.split(separator: " ").map(String.init) }
    }

    /// Polls `condition` until it holds, for two minutes at most (a full test run on two cores
    /// has taken longer than 30 s to bring both writers back after the restart).
    private func waitUntil(_ what: String, _ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try !condition() {
            try #require(ContinuousClock.now < deadline, "waited 120 s in vain until \(what)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
