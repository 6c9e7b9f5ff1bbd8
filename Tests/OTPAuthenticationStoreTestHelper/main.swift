// Test helper: runs one store operation stream in its own process, so tests can race two
// processes on one database or kill one with SIGKILL mid-stream. Key from OTPKIT_SEALING_KEY. DB is
// an SQLite file, or `postgres` for the PostgreSQL database libpq's variables name (PGHOST, PGPORT,
// PGUSER, PGDATABASE, PGOPTIONS).
//
//   open DB                          open the store, print "ok" or the error, exit 0 / 1
//   race DB FACTOR FIRST ROUNDS T    verify the code of steps FIRST..<FIRST+ROUNDS for FACTOR, round i
//                                    at Unix millisecond T + 5i (so two racers start each round together),
//                                    and record each accepted step; one line per round:
//                                    "accepted S", "replay-by-read S" or "replay-by-cas S"
//   spend DB KIND ROUNDS T PROCESS   KIND recovery or phone: in round i (at Unix millisecond T + 5i)
//                                    complete a sign-in of user "racer" with the recovery code whose
//                                    digest is spendDigest(i) and the credential "cred-i-PROCESS", or
//                                    with the phone verification "verification-i" and its credential
//                                    "cred-i"; one line per round: "completed I" or "refused I OUTCOME"
//   churn DB ACKFILE                 enroll factors and accept steps forever; after each commit append
//                                    "enrolled ID" or "step ID S" to ACKFILE
//   phone-churn DB ACKFILE           enroll phone factors forever (verification, then finalization);
//                                    after each commit append "ID NUMBER" to ACKFILE
//   resilient-churn DB ACKFILE STOP  as churn until the file STOP exists (two minutes at most), going
//                                    on after failures: append "ok T enrolled ID", "ok T step ID S",
//                                    "error T TYPE: MESSAGE" or "refused T WHAT" (T in Unix
//                                    milliseconds) and exit 0
import OTPCore
import OTPAuthentication
import OTPAuthenticationPostgres
import OTPAuthenticationSQLite
import OTPSealing
import Logging

import Glibc

func fail(_ message: String) -> Never {
    var text = message + "\n"
    _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// Appends a line to the file at `path` for each write once it is committed: what the test
/// compares with the database after killing this process.
func acknowledger(_ path: String) -> (String) -> Void {
    let ack = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard ack >= 0 else { fail("cannot open \(path)") }
    return { line in
        var text = line + "\n"
        _ = text.withUTF8 { write(ack, $0.baseAddress, $0.count) }
    }
}

/// The digest of round `round`'s code in `spend`: the test stores the same bytes.
func spendDigest(_ round: Int) -> [UInt8] {
    Array("spend-digest-\(round)".utf8)
}

func unixMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

func openStore(_ path: String) async -> any AuthStore {
    do {
        let sealer = try SecretSealer(current: SealingKey(environmentVariable: SealingKey.defaultEnvironmentVariable))
        if path == "postgres" {
            var logger = Logger(label: "helper")
            logger.logLevel = getenv("OTPKIT_HELPER_TRACE") != nil ? .trace : .critical
            return try await PostgresAuthStore.open(sealer: sealer, poolSize: 2, logger: logger)
        }
        return try await SQLiteAuthStore.open(path: path, sealer: sealer)
    } catch let error as SealingError {
        fail("\(error)")
    } catch {
        fail("\(error)")
    }
}

func close(_ store: any AuthStore) async throws {
    if let store = store as? SQLiteAuthStore { try await store.close() }
    if let store = store as? PostgresAuthStore { await store.close() }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    fail(
        "usage: open DB | race DB FACTOR FIRST ROUNDS T | spend DB KIND ROUNDS T PROCESS | churn DB ACKFILE | phone-churn DB ACKFILE | resilient-churn DB ACKFILE STOP"
    )
}

switch arguments[1] {
case "open":
    let store = await openStore(arguments[2])
    print("ok")
    try await close(store)

case "race":
    guard arguments.count == 7, let first = UInt64(arguments[4]), let rounds = UInt64(arguments[5]), let start = Int64(arguments[6]) else {
        fail("usage: race DB FACTOR FIRST ROUNDS T")
    }
    let store = await openStore(arguments[2])
    var lines: [String] = []
    for step in first..<(first + rounds) {
        let roundStart = start + 5 * Int64(step - first)
        while unixMilliseconds() < roundStart { usleep(100) }
        guard let record = try await store.factor(id: arguments[3]) else { fail("no factor \(arguments[3])") }
        let totp = try TOTP(secret: record.secret, algorithm: record.algorithm, digits: record.digits, period: record.period)
        let code = totp.code(step: step)
        // The same check the service makes: verify against the last accepted step read, then compare-and-set.
        guard let match = try totp.verify(code, at: totp.startOfStep(step), window: .exact, after: record.lastAcceptedStep) else {
            lines.append("replay-by-read \(step)")
            continue
        }
        switch try await store.recordAcceptedStep(match.step, factorID: record.id) {
        case .accepted: lines.append("accepted \(step)")
        case .rejected: lines.append("replay-by-cas \(step)")
        case .factorNotFound: fail("factor vanished")
        }
    }
    print(lines.joined(separator: "\n"))
    try await close(store)

case "spend":
    guard arguments.count == 7, ["recovery", "phone"].contains(arguments[3]), let rounds = Int(arguments[4]), let start = Int64(arguments[5]),
        let process = Int(arguments[6])
    else { fail("usage: spend DB recovery|phone ROUNDS T PROCESS") }
    let store = await openStore(arguments[2])
    var lines: [String] = []
    for round in 0..<rounds {
        while unixMilliseconds() < start + 5 * Int64(round) { usleep(100) }
        let now = unixMilliseconds() / 1000
        let session = SessionRecord(
            id: "session-\(round)-\(process)", userID: "racer", firstFactorProvider: "password", authenticatedAt: now,
            secondFactorEnrollmentID: nil, lastUsedAt: now, expiresAt: now + 3600)
        func credential(_ id: String) -> PendingSignInRecord {
            PendingSignInRecord(id: id, userID: "racer", firstFactorProvider: "password", createdAt: now, expiresAt: now + 3600)
        }
        let completion =
            arguments[3] == "recovery"
            ? try await store.completeSignIn(
                credential: credential("cred-\(round)-\(process)"), recoveryCodeDigests: [spendDigest(round)], failureKey: "recovery-racer", at: now,
                session: session, maximumSessionsPerUser: 10_000)
            : try await store.completeSignIn(
                credential: credential("cred-\(round)"), phoneVerificationID: "verification-\(round)", codeDigests: [spendDigest(round)],
                maximumAttempts: 5,
                at: now, session: session, maximumSessionsPerUser: 10_000)
        lines.append(completion == .completed ? "completed \(round)" : "refused \(round) \(completion)")
    }
    print(lines.joined(separator: "\n"))
    try await close(store)

case "churn":
    guard arguments.count == 4 else { fail("usage: churn DB ACKFILE") }
    let store = await openStore(arguments[2])
    let acknowledge = acknowledger(arguments[3])
    let run = UInt32.random(in: 0...UInt32.max)
    var index = 0
    while true {
        let id = "churn-\(run)-\(index)"
        let secret = try OTPSecret.random(for: .sha1)
        let pending = PendingEnrollmentRecord(
            id: "pending-\(id)", userID: "user-\(index % 7)", secret: secret, algorithm: .sha1, digits: 6, period: 30,
            createdAt: 1_000, deadline: 2_000_000_000
        )
        try await store.insertPendingEnrollment(pending)
        let factor = FactorRecord(
            id: id, userID: pending.userID, factorID: "totp", displayName: "churn \(index)", enrolledAt: Int64(index),
            secret: secret, algorithm: .sha1, digits: 6, period: 30, lastAcceptedStep: nil
        )
        guard try await store.finalizeEnrollment(pendingID: pending.id, factor: factor, maximumFactorCount: .max) == .enrolled else {
            fail("finalization refused")
        }
        acknowledge("enrolled \(id)")
        for step in UInt64(1)...3 {
            guard try await store.recordAcceptedStep(step, factorID: id) == .accepted else { fail("step refused") }
            acknowledge("step \(id) \(step)")
        }
        index += 1
    }

case "phone-churn":
    guard arguments.count == 4 else { fail("usage: phone-churn DB ACKFILE") }
    let store = await openStore(arguments[2])
    let acknowledge = acknowledger(arguments[3])
    let run = UInt32.random(in: 0...UInt32.max)
    var index = 0
    while true {
        let id = "phone-\(run)-\(index)"
        let digits = String(index)
        let number = "+1555" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
        let code = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let verification = PhoneVerificationRecord(
            id: "verification-\(id)", purpose: .enrollment, userID: "user-\(run)-\(index % 7)", enrollmentID: nil, credentialID: nil,
            phoneNumber: number, codeDigest: code, createdAt: 1_000, expiresAt: 2_000_000_000, failedAttempts: 0)
        try await store.insertPhoneVerification(verification)
        let outcome = try await store.finalizePhoneEnrollment(
            verificationID: verification.id, userID: verification.userID, codeDigests: [code], at: 1_001, maximumAttempts: 5, factorID: id,
            displayName: nil, maximumFactorCount: .max)
        guard case .enrolled = outcome else { fail("phone enrollment refused: \(outcome)") }
        acknowledge("\(id) \(number)")
        index += 1
    }

case "resilient-churn":
    guard arguments.count == 5 else { fail("usage: resilient-churn DB ACKFILE STOP") }
    let store = await openStore(arguments[2])
    let acknowledge = acknowledger(arguments[3])
    let deadline = unixMilliseconds() + 120_000
    let run = UInt32.random(in: 0...UInt32.max)
    var index = 0
    while unixMilliseconds() < deadline, access(arguments[4], F_OK) != 0 {
        let id = "resilient-\(run)-\(index)"
        index += 1
        do {
            let secret = try OTPSecret.random(for: .sha1)
            let pending = PendingEnrollmentRecord(
                id: "pending-\(id)", userID: "user-\(run)-\(index)", secret: secret, algorithm: .sha1, digits: 6, period: 30,
                createdAt: 1_000, deadline: 2_000_000_000)
            try await store.insertPendingEnrollment(pending)
            let factor = FactorRecord(
                id: id, userID: pending.userID, factorID: "totp", displayName: nil, enrolledAt: 1_000, secret: secret, algorithm: .sha1,
                digits: 6, period: 30, lastAcceptedStep: nil)
            let finalization = try await store.finalizeEnrollment(pendingID: pending.id, factor: factor, maximumFactorCount: .max)
            guard finalization == .enrolled else {
                acknowledge("refused \(unixMilliseconds()) finalization of \(id): \(finalization)")
                continue
            }
            acknowledge("ok \(unixMilliseconds()) enrolled \(id)")
            for step in UInt64(1)...3 {
                let acceptance = try await store.recordAcceptedStep(step, factorID: id)
                guard acceptance == .accepted else {
                    acknowledge("refused \(unixMilliseconds()) step \(step) of \(id): \(acceptance)")
                    break
                }
                acknowledge("ok \(unixMilliseconds()) step \(id) \(step)")
            }
        } catch {
            let message = "\(error)".split(separator: "\n").first ?? ""
            acknowledge("error \(unixMilliseconds()) \(type(of: error)): \(message)")
            usleep(50_000)
        }
    }
    try await close(store)

default:
    fail("unknown command \(arguments[1])")
}
