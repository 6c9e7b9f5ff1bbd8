import Dispatch
@testable import OTPAuthentication
import OTPTestUtilities
import Synchronization
import Testing

/// A password hash costs a fifth of a second of a core and 64 MiB: an outside review took the
/// server's CPU with 200 concurrent password links, each hashed before the store refused it.
@Suite("Password hashing limits")
struct PasswordHashingLimitTests {
    @Test("what the store would refuse is refused before any hash: a taken address, a second password, a weak one, no account")
    func conflictsBeforeHashing() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(passwords: PasswordSettings(hashParameters: PasswordHasherTests.cheap)))
        let service = fixture.service
        let ada = try await service.createUser(withEmail: "ada@example.com", password: "correct horse")
        let anonymous = try await service.signInAnonymously()
        let hashes = service.passwordHashing.load.completed
        let taken = EmailAuthProvider.credential(withEmail: "ada@example.com", password: "correct horse")
        #expect(await authErrorCode { _ = try await anonymous.link(with: taken) } == .emailAlreadyInUse)
        let second = EmailAuthProvider.credential(withEmail: "other@example.com", password: "correct horse")
        #expect(await authErrorCode { _ = try await ada.link(with: second) } == .providerAlreadyLinked)
        #expect(
            await authErrorCode { _ = try await service.createUser(withEmail: "ADA@example.com", password: "correct horse") } == .emailAlreadyInUse)
        #expect(await authErrorCode { _ = try await service.createUser(withEmail: "new@example.com", password: "short") } == .weakPassword)
        #expect(await authErrorCode { _ = try await ada.update(email: "new@example.com", password: "short") } == .weakPassword)
        let created = try await service.administration.createAccount(
            id: nil, email: "ada@example.com", password: "correct horse", displayName: nil, photoURL: nil, isEmailVerified: false,
            isDisabled: false)
        #expect(created == .emailAlreadyInUse)
        let byID = try await service.administration.createAccount(
            id: ada.uid, email: "fresh@example.com", password: "correct horse", displayName: nil, photoURL: nil, isEmailVerified: false,
            isDisabled: false)
        #expect(byID == .idAlreadyInUse)
        #expect(
            try await service.administration.updateAccount(id: anonymous.uid, email: "ada@example.com", password: "correct horse")
                == .emailAlreadyInUse)
        #expect(try await service.administration.updateAccount(id: "nobody", password: "correct horse") == .accountNotFound)
        #expect(service.passwordHashing.load.completed == hashes)
        // The same requests where nothing refuses them do hash.
        _ = try await anonymous.link(with: EmailAuthProvider.credential(withEmail: "bob@example.com", password: "correct horse"))
        #expect(service.passwordHashing.load.completed == hashes + 1)
    }

    @Test(
        "at most maximumConcurrent hashes run, maximumWaiting wait, the rest are refused at once; all of them off the cooperative pool",
        .hangGuard)
    func gateBoundsTheWork() async throws {
        let gate = PasswordHashingGate(maximumConcurrent: 2, maximumWaiting: 3)
        let probe = Probe()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await gate.run { probe.work() }
                    } catch {
                        #expect((error as? AuthError)?.code == .tooManyRequests)
                        probe.refused.add(1, ordering: .relaxed)
                    }
                }
            }
            // Five are refused at once; then two run and three wait, and none can finish.
            while probe.refused.load(ordering: .relaxed) < 5 { await Task.yield() }
            let load = gate.load
            #expect(load.running == 2 && load.waiting == 3 && load.completed == 0)
            for _ in 0..<5 { probe.release.signal() }
            try await group.waitForAll()
        }
        #expect(probe.refused.load(ordering: .relaxed) == 5)
        // Never more than the gate admits; how many of those dispatch runs at once is its own
        // choice (a loaded machine may give two blocked items one thread in turn).
        #expect((1...2).contains(probe.mostRunning.load(ordering: .relaxed)))
        #expect(probe.onGateThreads.load(ordering: .relaxed) == 5)
        #expect(gate.load == (0, 0, 5))
    }
}

/// What the gate's work saw: how many ran at once, on which threads, and how many were refused.
private final class Probe: Sendable {
    let release = DispatchSemaphore(value: 0)
    let running = Atomic<Int>(0)
    let mostRunning = Atomic<Int>(0)
    let onGateThreads = Atomic<Int>(0)
    let refused = Atomic<Int>(0)

    /// Runs until released.
    func work() -> Int {
        let now = running.add(1, ordering: .relaxed).newValue
        _ = mostRunning.max(now, ordering: .relaxed)
        if DispatchQueue.getSpecific(key: PasswordHashingGate.queueKey) == true { onGateThreads.add(1, ordering: .relaxed) }
        release.wait()
        running.subtract(1, ordering: .relaxed)
        return now
    }
}
