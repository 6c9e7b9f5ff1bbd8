import Benchmark
import Foundation
import Logging
import OTPAuthentication
import OTPAuthenticationPostgres
import OTPSealing
import PostgresNIO

nonisolated(unsafe) var postgresFixtures: [SignInFixture] = []
nonisolated(unsafe) var postgresStores: [PostgresAuthStore] = []
nonisolated(unsafe) var serviceProcesses: [SignInServiceChild] = []

/// The schema the PostgreSQL benchmarks create afresh in `PGDATABASE` for each benchmark.
let benchmarkSchema = "otpkit_benchmark"
let logger = Logger(label: "EnrollmentBenchmarks")

/// The server from libpq's variables, as `bash .ci/postgres start` exports them; an error that
/// says how to start one when they are missing.
func postgresEnvironment() throws -> [String: String] {
    var environment = PostgresAuthStore.processEnvironment
    guard environment["PGHOST"] != nil, environment["PGPORT"] != nil else {
        throw BenchmarkSetupError(
            description:
                "the PostgreSQL benchmarks need a server: run eval \"$(bash ../.ci/postgres start)\" first (PGHOST, PGPORT, PGUSER, PGDATABASE)")
    }
    environment["PGOPTIONS"] = "-c search_path=\(benchmarkSchema)"
    return environment
}

struct BenchmarkSetupError: Error, CustomStringConvertible {
    let description: String
}

/// One plain connection to the benchmark database, outside any store.
func connectRaw() async throws -> PostgresConnection {
    let environment = try postgresEnvironment()
    let directory = environment["PGHOST"] ?? ""
    let configuration = PostgresConnection.Configuration(
        unixSocketPath: "\(directory)/.s.PGSQL.\(environment["PGPORT"] ?? "5432")", username: environment["PGUSER"] ?? "postgres",
        password: nil, database: environment["PGDATABASE"] ?? "postgres")
    return try await PostgresConnection.connect(configuration: configuration, id: Int.random(in: 0..<1_000_000), logger: logger)
}

/// Drops what an earlier benchmark left and creates the schema empty.
func resetSchema() async throws {
    let connection = try await connectRaw()
    try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(benchmarkSchema) CASCADE"), logger: logger)
    try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(benchmarkSchema)"), logger: logger)
    try await connection.close()
}

/// Durable sign-ins on PostgreSQL on this machine (`synchronous_commit = on`, fsync on), as the
/// SQLite ones in ConcurrentSignIn+Benchmarks.swift: a thousand users each signing in once per
/// iteration, time per sign-in, p50 and p99 latency in microseconds. `one` is one service
/// instance (one store, one pool); `two` is two instances in this process on one database, the
/// clients split between them; `processes2` is two instances each in an OS process of its own
/// (``SignInServiceProcess``), as two servers behind a load balancer. RawCommit+Benchmarks.swift
/// gives the scale: what each database commits without OTPKit.
func registerPostgresSignInBenchmarks() {
    let p50 = BenchmarkMetric.custom("latency p50 (us)", polarity: .prefersSmaller, useScalingFactor: false)
    let p99 = BenchmarkMetric.custom("latency p99 (us)", polarity: .prefersSmaller, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .cpuTotal, p50, p99, MachineCPU.busyMetric, MachineCPU.perOperationMetric], warmupIterations: 1,
        scalingFactor: .kilo, maxDuration: .seconds(10), maxIterations: 20)
    for instances in [1, 2] {
        for clients in [1, 16, 64, 256] where clients >= instances {
            let name = instances == 1 ? "one" : "two"
            Benchmark("otpkit.enrollment.signin.postgres.\(name).clients\(clients)", configuration: configuration) { benchmark in
                let started = MachineCPU.now()
                benchmark.startMeasurement()
                let latencies = try await withThrowingTaskGroup(of: [Int].self) { group in
                    for fixture in postgresFixtures {
                        group.addTask { try await fixture.signInEveryone(clients: clients / instances) }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                benchmark.stopMeasurement()
                if let started, let ended = MachineCPU.now() { started.until(ended).record(in: benchmark, operations: latencies.count) }
                benchmark.measurement(p50, percentile(latencies, 0.50))
                benchmark.measurement(p99, percentile(latencies, 0.99))
            } setup: {
                try await resetSchema()
                let sealer = try SecretSealer(current: SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }))
                postgresStores = []
                postgresFixtures = []
                for instance in 0..<instances {
                    let store = try await PostgresAuthStore.open(environment: postgresEnvironment(), sealer: sealer, poolSize: 32)
                    postgresStores.append(store)
                    // Each instance serves its own half of the thousand users.
                    let users = (0..<1000).filter { $0 % instances == instance }.map { "user-\($0)" }
                    let fixture = try SignInFixture(store: store, userIDs: users)
                    try await fixture.enroll()
                    postgresFixtures.append(fixture)
                }
            } teardown: {
                for store in postgresStores { await store.close() }
                postgresStores = []
                postgresFixtures = []
            }
        }
    }
    // This process only waits for the services: its CPU time would say nothing.
    var processes = configuration
    let servicesCPU = BenchmarkMetric.custom("services CPU per sign-in (us)", polarity: .prefersSmaller, useScalingFactor: false)
    processes.metrics = [.throughput, .wallClock, p50, p99, MachineCPU.busyMetric, MachineCPU.perOperationMetric, servicesCPU]
    for clients in [64, 256] {
        Benchmark("otpkit.enrollment.signin.postgres.processes2.clients\(clients)", configuration: processes) { benchmark in
            let started = MachineCPU.now()
            benchmark.startMeasurement()
            for service in serviceProcesses { try service.startRound(clients: clients / serviceProcesses.count) }
            var latencies: [Int] = []
            var cpuMicroseconds = 0
            for service in serviceProcesses {
                let round = try service.roundResult()
                latencies += round.latencies
                cpuMicroseconds += round.cpuMicroseconds
            }
            benchmark.stopMeasurement()
            if let started, let ended = MachineCPU.now() { started.until(ended).record(in: benchmark, operations: latencies.count) }
            benchmark.measurement(servicesCPU, cpuMicroseconds / max(1, latencies.count))
            benchmark.measurement(p50, percentile(latencies, 0.50))
            benchmark.measurement(p99, percentile(latencies, 0.99))
        } setup: {
            try await resetSchema()
            let key = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let environment = try postgresEnvironment()
            // One after the other (each child answers once migrated and enrolled): setup is not measured.
            serviceProcesses = []
            for instance in 0..<2 {
                serviceProcesses.append(try SignInServiceChild(instance: instance, of: 2, key: key, environment: environment))
            }
        } teardown: {
            for service in serviceProcesses { service.stop() }
            serviceProcesses = []
        }
    }
}
