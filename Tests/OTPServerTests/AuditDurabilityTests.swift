import AsyncHTTPClient
import Foundation
import NIOCore
import OTPPostgresTestServer
import OTPTestUtilities
import Synchronization
import Testing

/// The audit log loses nothing: `otpkit-server` killed with SIGKILL in the middle of a stream of
/// changes, then started again on the same database, holds exactly one event for every change it
/// acknowledged, and an event for every change the database holds (none for one it does not).
@Suite("Audit log durability across kill -9")
struct AuditDurabilityTests {
    /// What the clients were told, and what they were waiting for when the server died.
    final class Ledger: Sendable {
        struct Account {
            var uid: String?
            var acknowledged: Set<String> = []
            var pending: String?
        }

        /// How many acknowledgements the kill waits for.
        static let killAfter = 60

        let accounts = Mutex<[String: Account]>([:])
        let acknowledgedCount = Atomic<Int>(0)
        /// Yields once, when the ``killAfter``th acknowledgement arrives.
        let enough: AsyncStream<Void>
        private let enoughContinuation: AsyncStream<Void>.Continuation

        init() {
            (enough, enoughContinuation) = AsyncStream.makeStream()
        }

        /// Ends the wait when the clients stopped before the kill (the server failed on its own).
        func clientsStopped() {
            enoughContinuation.finish()
        }

        func begin(_ email: String, _ change: String) { accounts.withLock { $0[email, default: Account()].pending = change } }

        func acknowledge(_ email: String, _ change: String, uid: String? = nil) {
            accounts.withLock { accounts in
                accounts[email, default: Account()].acknowledged.insert(change)
                accounts[email]?.pending = nil
                if let uid { accounts[email]?.uid = uid }
            }
            if acknowledgedCount.add(1, ordering: .relaxed).newValue == Self.killAfter {
                enoughContinuation.yield()
                enoughContinuation.finish()
            }
        }
    }

    @Test("kill -9 during a stream of sign-ups, wrong passwords, sign-ins and administrators' changes", arguments: ["sqlite", "postgres"])
    func killedMidStream(_ backend: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        if backend == "postgres" {
            try await TestDatabase.withFresh { database in try await Self.run(directory: directory, database: try database.url) }
        } else {
            try await Self.run(directory: directory, database: directory.file("otpkit.sqlite"))
        }
    }

    static func run(directory: TemporaryDirectory, database: String) async throws {
        let ledger = Ledger()
        let keyFile = try ServerProcess.sealingKeyFile(in: directory)
        // A PostgreSQL database has no place beside it for the signing key: both servers share a file.
        let options = ["--emulator", "--signing-key-file", directory.file("signing.key")]
        let commandLine = ["--db", database, "--key-file", keyFile, "--project-id", "demo-otpkit", "--port", "0"] + options
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let output = try await ProcessRunner.converse(
                try BuiltProduct.path("otpkit-server"), commandLine, environment: ServerProcess.serverEnvironment([:])
            ) { session in
                let text = try await session.waitForOutput(containing: "\n", timeout: .seconds(120))
                let port = try #require(Int(text.split(separator: "\n").first ?? ""), "not a port: \(text)")
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        await withTaskGroup(of: Void.self) { workers in
                            for worker in 0..<6 {
                                workers.addTask { await stream(worker: worker, port: port, client: client, ledger: ledger) }
                            }
                        }
                        ledger.clientsStopped()
                    }
                    // Killed once enough has been acknowledged that every kind of change is among it,
                    // with each worker in the middle of its next one.
                    for await _ in ledger.enough { break }
                    try session.send(signal: SIGKILL)
                    try await group.waitForAll()
                }
            }
            #expect(output.termination == .signaled(SIGKILL), "\(output)")
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }

        // The same database, a new server: what it holds is what was durable when the first died.
        try await ServerProcess.with(arguments: options, in: directory, database: database) { server in
            let export = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/auditEvents:export", "", headers: [("Authorization", "Bearer owner")],
                method: .GET)
            try #require(export.status == 200, "\(export.body)")
            let events = export.body.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
            let listed = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/accounts:batchGet?maxResults=1000", "",
                headers: [("Authorization", "Bearer owner")], method: .GET)
            try #require(listed.status == 200, "\(listed.body)")
            let users = listed.json["users"] as? [[String: Any]] ?? []
            try check(events: events, users: users, ledger: ledger)
        }
    }

    /// Each acknowledged change has exactly one event; the accounts and disabled accounts the
    /// database holds each have exactly one event, and no event names an account it does not hold.
    static func check(events: [[String: Any]], users: [[String: Any]], ledger: Ledger) throws {
        var counts: [String: [String: Int]] = [:]
        for event in events {
            guard let uid = event["userId"] as? String, let kind = event["kind"] as? String else { continue }
            counts[uid, default: [:]][kind, default: 0] += 1
        }
        let stored = Set(users.compactMap { $0["localId"] as? String })
        let disabled = Set(users.filter { $0["disabled"] as? Bool == true }.compactMap { $0["localId"] as? String })
        #expect(Set(counts.keys.filter { counts[$0]?["account.created"] != nil }) == stored, "an account.created event for each stored account")
        for uid in stored {
            #expect(counts[uid]?["account.created"] == 1, "one creation event of \(uid)")
            #expect((counts[uid]?["account.disabled"] ?? 0) == (disabled.contains(uid) ? 1 : 0), "disabling events of \(uid)")
        }
        let accounts = ledger.accounts.withLock { $0 }
        var acknowledged = 0
        for (email, account) in accounts {
            guard let uid = account.uid else {
                #expect(account.acknowledged.isEmpty, "\(email): acknowledged changes without a sign-up")
                continue
            }
            acknowledged += account.acknowledged.count
            let events = counts[uid] ?? [:]
            let pending = account.pending
            // A sign-up signs in; a sign-in after it signs in again.
            let signIns = (account.acknowledged.contains("signUp") ? 1 : 0) + (account.acknowledged.contains("signIn") ? 1 : 0)
            let inFlightSignIn = pending == "signIn" ? 1 : 0
            #expect((signIns...(signIns + inFlightSignIn)).contains(events["sign_in"] ?? 0), "\(email): sign-ins \(events)")
            for (change, kind) in [("wrongPassword", "sign_in.failed"), ("disable", "account.disabled")] {
                let least = account.acknowledged.contains(change) ? 1 : 0
                let most = least + (pending == change ? 1 : 0)
                #expect(
                    (least...most).contains(events[kind] ?? 0), "\(email): \(kind) after \(account.acknowledged), \(pending ?? "nothing") pending")
            }
        }
        #expect(acknowledged >= Ledger.killAfter, "the changes acknowledged before the kill")
    }

    /// One worker's stream: account after account, each signed up, given a wrong password, signed
    /// in and disabled by the administrator, until the server stops answering.
    static func stream(worker: Int, port: Int, client: HTTPClient, ledger: Ledger) async {
        let base = "http://127.0.0.1:\(port)"
        func send(_ path: String, _ body: String, admin: Bool = false) async throws -> (Int, [String: Any]) {
            var request = HTTPClientRequest(url: base + path)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            if admin { request.headers.add(name: "Authorization", value: "Bearer owner") }
            request.body = .bytes(ByteBuffer(string: body))
            let response = try await client.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:])
        }
        var index = 0
        while true {
            let email = "w\(worker)-\(index)@example.com"
            let credentials = #"{"email":"\#(email)","password":"long enough","returnSecureToken":true}"#
            do {
                ledger.begin(email, "signUp")
                let (status, created) = try await send(ClientEndpointTests.signUp, credentials)
                guard status == 200, let uid = created["localId"] as? String else { return }
                ledger.acknowledge(email, "signUp", uid: uid)
                ledger.begin(email, "wrongPassword")
                let (refused, _) = try await send(ClientEndpointTests.signIn, #"{"email":"\#(email)","password":"not it"}"#)
                guard refused == 400 else { return }
                ledger.acknowledge(email, "wrongPassword")
                ledger.begin(email, "signIn")
                guard try await send(ClientEndpointTests.signIn, credentials).0 == 200 else { return }
                ledger.acknowledge(email, "signIn")
                ledger.begin(email, "disable")
                let update = #"{"localId":"\#(uid)","disableUser":true}"#
                guard try await send("/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/accounts:update", update, admin: true).0 == 200 else {
                    return
                }
                ledger.acknowledge(email, "disable")
            } catch {
                return
            }
            index += 1
        }
    }
}
