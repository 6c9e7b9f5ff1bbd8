public import Foundation
import Testing

extension ProcessRunner {
    /// Runs `executable`, which appends a line to `acknowledgements` after each write it has made
    /// durable, until it has acknowledged at least `count` writes, then kills it with SIGKILL at a
    /// random moment soon after: a crash in the middle of a stream of writes. Returns the lines
    /// acknowledged, which the caller checks are all in the database.
    public static func killMidStream(
        _ executable: String, _ arguments: [String], environment: [String: String?], acknowledgements: String, count: Int
    ) async throws -> [String] {
        let result = try await converse(executable, arguments, environment: environment) { session in
            let deadline = ContinuousClock.now + .seconds(60)
            while try acknowledgedLines(acknowledgements).count < count {
                // The helper never closes its standard output: closed, it has ended.
                try #require(await !session.isOutputClosed, "\(arguments.first ?? executable) ended before it was killed")
                try #require(ContinuousClock.now < deadline, "\(arguments.first ?? executable) acknowledged too slowly")
                try await Task.sleep(for: .milliseconds(5))
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
            try session.send(signal: SIGKILL)
        }
        #expect(result.termination == .signaled(SIGKILL), "\(result)")
        return try acknowledgedLines(acknowledgements)
    }

    /// The lines acknowledged so far; none before the process creates the file.
    public static func acknowledgedLines(_ path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}

extension ProcessRunner {
    /// Checks the store test helper's `churn` acknowledgements ("enrolled ID", "step ID S") against
    /// a store, read through `factor` (whether the factor exists, and its last accepted step): every
    /// acknowledged factor is there with at least each acknowledged step. Returns how many
    /// enrollments were acknowledged.
    public static func expectAcknowledgedChurn(
        _ lines: [String], factor: (String) async throws -> (exists: Bool, lastAcceptedStep: UInt64?)
    ) async throws -> Int {
        var enrolled = 0
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            let found = try await factor(parts[1])
            #expect(found.exists, "acknowledged \(line) is missing")
            if parts[0] == "step", let step = UInt64(parts[2]) {
                #expect((found.lastAcceptedStep ?? 0) >= step, "acknowledged \(line) is lost")
            } else {
                enrolled += 1
            }
        }
        return enrolled
    }
}
