import Foundation
import OTPAuthenticationPostgres
import OTPSealing
import Synchronization

/// A service instance in an OS process of its own, for the PostgreSQL benchmarks with service
/// processes on one database, as servers behind a load balancer are: the benchmark's executable
/// started again with `OTPKIT_SIGNIN_SERVICE=<instance>/<instances>` and the sealing key, in
/// base64, in `OTPKIT_SEALING_KEY`. It opens a store on the benchmark's schema, enrolls its share
/// of the thousand users and says `ready`; then it answers each `run <clients>` line on its
/// standard input, once every one of its users has signed in once from that many concurrent
/// clients, with one line: the CPU time the process spent on the round in microseconds, then the
/// sign-ins' latencies in nanoseconds; `quit` closes the store and ends it.
///
/// Services in one process share its threads (one event loop, one pool of task threads), which
/// servers on one machine do not.
enum SignInServiceProcess {
    static let instanceVariable = "OTPKIT_SIGNIN_SERVICE"
    static let keyVariable = "OTPKIT_SEALING_KEY"

    /// Serves as a child when the environment says so, and then never returns; otherwise returns
    /// at once. The harness calls the registration closure on the main thread, outside the pool
    /// the store's tasks run on, so that thread reads the commands and waits for their work.
    static func serveIfAsked() {
        let environment = ProcessInfo.processInfo.environment
        guard let role = environment[instanceVariable] else { return }
        let parts = role.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, let encodedKey = environment[keyVariable], let key = Data(base64Encoded: encodedKey) else {
            fail("\(instanceVariable) must be <instance>/<instances> and \(keyVariable) a key in base64")
        }
        let users = (0..<1000).filter { $0 % parts[1] == parts[0] }.map { "user-\($0)" }
        let (store, fixture) = waiting {
            let store = try await PostgresAuthStore.open(
                environment: PostgresAuthStore.processEnvironment, sealer: SecretSealer(current: SealingKey(bytes: Array(key))), poolSize: 32)
            let fixture = try SignInFixture(store: store, userIDs: users)
            try await fixture.enroll()
            return (store, fixture)
        }
        say("ready")
        while let line = readLine(), line != "quit" {
            guard line.hasPrefix("run "), let clients = Int(line.dropFirst(4)) else { fail("unknown command \(line.debugDescription)") }
            let cpuBefore = cpuMicroseconds()
            let latencies = waiting { try await fixture.signInEveryone(clients: clients) }
            say(([cpuMicroseconds() - cpuBefore] + latencies).map(String.init).joined(separator: " "))
        }
        waiting { await store.close() }
        exit(0)
    }

    /// Runs `work` on the task pool and waits for it on this thread; a failure ends the process.
    private static func waiting<Result: Sendable>(_ work: @escaping @Sendable () async throws -> Result) -> Result {
        let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Swift.Result<Result, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let value): return value
        case .failure(let error): fail("\(error)")
        case nil: fail("the work ended without a result")
        }
    }

    /// The CPU time (user and system) of this process so far, every thread's.
    private static func cpuMicroseconds() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("sign-in service: \(message)\n".utf8))
        exit(1)
    }
}

/// The benchmark's side of one ``SignInServiceProcess``: started with the benchmark's PostgreSQL
/// settings, commanded through its standard input, answered through its standard output.
final class SignInServiceChild {
    private let process = Process()
    private let commands = Pipe()
    private let answers = Pipe()
    private var pending: [UInt8] = []

    /// Starts instance `instance` of `instances` in `environment` (this process's, with the
    /// benchmark's PostgreSQL settings) and waits until it has enrolled its users.
    init(instance: Int, of instances: Int, key: [UInt8], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var environment = environment
        environment[SignInServiceProcess.instanceVariable] = "\(instance)/\(instances)"
        environment[SignInServiceProcess.keyVariable] = Data(key).base64EncodedString()
        process.environment = environment
        process.standardInput = commands
        process.standardOutput = answers
        try process.run()
        while try nextLine() != "ready" {}
    }

    /// Asks the service to sign everyone in once, from `clients` concurrent clients.
    func startRound(clients: Int) throws {
        try commands.fileHandleForWriting.write(contentsOf: Data("run \(clients)\n".utf8))
    }

    /// The service's CPU time (µs) and the latencies (ns) of the round started last, once it has
    /// ended. The read blocks its thread: the benchmark's process does nothing else meanwhile,
    /// the work is the children's.
    func roundResult() throws -> (cpuMicroseconds: Int, latencies: [Int]) {
        let numbers = try nextLine().split(separator: " ").compactMap { Int($0) }
        guard let cpu = numbers.first else {
            throw BenchmarkSetupError(description: "a sign-in service process answered a round with an empty line")
        }
        return (cpu, Array(numbers.dropFirst()))
    }

    func stop() {
        try? commands.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        process.waitUntilExit()
    }

    private func nextLine() throws -> String {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 1)
                return line
            }
            // availableData returns what one read brings; read(upToCount:) waits for the count.
            let data = answers.fileHandleForReading.availableData
            guard !data.isEmpty else {
                throw BenchmarkSetupError(description: "a sign-in service process ended without answering (its error is above)")
            }
            pending += data
        }
    }
}
