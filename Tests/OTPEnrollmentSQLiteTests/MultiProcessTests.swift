import Foundation
import OTPCore
import OTPEnrollment
import OTPEnrollmentSQLite
import OTPSealing
import Testing

/// Several processes on one database file, as when verifier processes share it or one is killed.
@Suite("SQLite store across processes", .serialized)
struct MultiProcessTests {
    @Test("two processes verify the same valid codes at the same moment: exactly one acceptance per code")
    func replayAcrossProcesses() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let factor = try await enroll(store, id: "shared-factor")
        try await store.close()

        let rounds = 400
        let firstStep = UInt64(TOTP.currentUnixTime() / 30)
        let start = Int64(Date().timeIntervalSince1970 * 1000) + 1500
        let arguments = ["race", database.path, factor.id, String(firstStep), String(rounds), String(start)]
        let processes = try (0..<2).map { index in
            try TestHelper.start(
                arguments, keyHex: database.keyHex,
                output: database.directory + "/race-\(index).out", errors: database.directory + "/race-\(index).err"
            )
        }
        for process in processes { process.waitUntilExit() }
        var outcomes: [UInt64: [String]] = [:]
        for (index, process) in processes.enumerated() {
            let errors = try String(contentsOfFile: database.directory + "/race-\(index).err", encoding: .utf8)
            try #require(process.terminationStatus == 0, "helper \(index) failed: \(errors)")
            for line in try String(contentsOfFile: database.directory + "/race-\(index).out", encoding: .utf8).split(separator: "\n") {
                let parts = line.split(separator: " ")
                outcomes[UInt64(parts[1])!, default: []].append(String(parts[0]))
            }
        }
        try #require(outcomes.count == rounds)
        var decidedByCompareAndSet = 0
        for (step, results) in outcomes.sorted(by: { $0.key < $1.key }) {
            #expect(results.count == 2)
            #expect(results.filter { $0 == "accepted" }.count == 1, "step \(step): \(results)")
            if results.contains("replay-by-cas") { decidedByCompareAndSet += 1 }
        }
        // Both processes passed the code check for these steps; only the compare-and-set stopped the second.
        print("replay race: \(rounds) codes, \(decidedByCompareAndSet) decided by the compare-and-set, the rest by the read")
        #expect(decidedByCompareAndSet > 0, "the processes never raced; the test proved nothing")

        let reopened = try await database.open()
        #expect(try await reopened.factor(id: factor.id)?.lastAcceptedStep == firstStep + UInt64(rounds) - 1)
        try await reopened.close()
    }

    @Test("kill -9 mid-stream of enrollments and sign-ins: the file is intact and every acknowledged write is there", arguments: 1...3)
    func crashSafety(run: Int) async throws {
        let database = try TestDatabase()
        var acknowledged: [String] = []
        // Kill the same database's writer several times, so each restart also recovers the previous crash.
        for round in 0..<3 {
            let ack = database.directory + "/ack-\(round)"
            let process = try TestHelper.start(
                ["churn", database.path, ack], keyHex: database.keyHex,
                output: database.directory + "/churn-\(round).out", errors: database.directory + "/churn-\(round).err"
            )
            let target = 40 + Int.random(in: 0...60)
            let deadline = Date().addingTimeInterval(60)
            while (try? String(contentsOfFile: ack, encoding: .utf8))?.split(separator: "\n").count ?? 0 < target {
                try #require(process.isRunning, "churn helper exited: \((try? String(contentsOfFile: database.directory + "/churn-\(round).err", encoding: .utf8)) ?? "")")
                try #require(Date() < deadline, "churn helper too slow")
                try await Task.sleep(for: .milliseconds(5))
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
            acknowledged += try String(contentsOfFile: ack, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        let store = try await database.open()
        #expect(try await store.integrityProblems() == [])
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
        try await store.close()
    }
}
