import Foundation
import OTPCore
import OTPEnrollment
import OTPEnrollmentPostgres
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
            let helper = try BuiltProduct.path("OTPEnrollmentStoreTestHelper")
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
                    try BuiltProduct.path("OTPEnrollmentStoreTestHelper"), ["churn", "postgres", ack], environment: environment,
                    acknowledgements: ack, count: 40 + Int.random(in: 0...60))
            }
            var enrolled = 0
            for line in acknowledged {
                let parts = line.split(separator: " ").map(String.init)
                let factor = try await store.factor(id: parts[1])
                #expect(factor != nil, "acknowledged \(line) is missing")
                if parts[0] == "step", let step = UInt64(parts[2]) {
                    #expect((factor?.lastAcceptedStep ?? 0) >= step, "acknowledged \(line) is lost")
                } else {
                    enrolled += 1
                }
            }
            #expect(enrolled > 0)
            // The server let go of the killed processes' sessions: a new store works as before.
            #expect(try await enroll(store, id: "after-the-crash", userID: "someone-new").id == "after-the-crash")
        }
    }
}
