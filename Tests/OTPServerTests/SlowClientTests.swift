import Foundation
import Testing

/// A client that sends its request too slowly is cut off by `otpkit-server`'s idle timeout or,
/// trickling, by its request timeout, and the server goes on serving others.
@Suite struct SlowClientTests {
    @Test func aClientThatStopsInTheMiddleOfItsBodyIsDisconnected() async throws {
        try await ServerProcess.with(arguments: ["--emulator", "--idle-timeout", "2"]) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-key HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":\"slow@example.com\"")
            let start = ContinuousClock.now
            // Generous bounds: the machine may be loaded; what matters is that it ends at all.
            let (bytes, closed) = try await connection.readUntilClosed(timeout: .seconds(60))
            let elapsed = ContinuousClock.now - start
            #expect(closed, "the connection was still open after 60 s")
            #expect(elapsed >= .seconds(1), "closed after \(elapsed), before the idle timeout could have passed")
            let answer = String(decoding: bytes, as: UTF8.self)
            #expect(!answer.hasPrefix("HTTP/1.1 200"), "the half-sent request was served: \(answer)")

            let ready = try await server.get("/")
            #expect(ready.status == 200, "\(ready.body)")
            let signUp = try await server.post(ClientEndpointTests.signUp, #"{"email":"slow@example.com","password":"long enough"}"#)
            #expect(signUp.status == 200, "the half-sent sign-up created the account: \(signUp.body)")
        }
    }

    @Test func aClientThatTricklesItsBodyIsDisconnected() async throws {
        // The idle timeout alone would wait five minutes; the request timeout does not.
        try await ServerProcess.with(arguments: ["--emulator", "--idle-timeout", "300", "--request-timeout", "2"]) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-key HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
            let start = ContinuousClock.now
            let (sent, closed) = try await connection.trickle(every: .milliseconds(250), timeout: .seconds(60))
            let elapsed = ContinuousClock.now - start
            #expect(closed, "the connection was still open after 60 s of trickling (\(sent) bytes)")
            #expect(elapsed >= .seconds(1), "closed after \(elapsed), before the request timeout could have passed")

            // A request sent whole in time is served on a connection of its own.
            let ready = try await server.get("/")
            #expect(ready.status == 200, "\(ready.body)")
        }
    }

    @Test func connectionsBeyondTheLimitWaitUntilOneCloses() async throws {
        try await ServerProcess.with(arguments: ["--emulator", "--max-connections", "2", "--idle-timeout", "300"]) { server in
            // Clients that connect and say nothing hold the places, and more: the server accepts a
            // few connections at a time (SwiftNIO's reads), so the limit may be passed by that few.
            var idle: [RawConnection] = try (0..<8).map { _ in try RawConnection(port: server.port) }
            let waiting = try RawConnection(port: server.port)
            try waiting.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let (early, _) = try await waiting.readUntilClosed(timeout: .seconds(2))
            #expect(early.isEmpty, "a connection was served beyond the limit: \(String(decoding: early, as: UTF8.self))")

            idle.removeAll()
            // Generous: the machine may be loaded; what matters is that the place is handed on.
            let (answer, closed) = try await waiting.readUntilClosed(timeout: .seconds(60))
            #expect(closed && String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "\(String(decoding: answer, as: UTF8.self))")
        }
        try await ServerProcess.expectRefusedAtStart([(["--max-connections", "0"], "--max-connections must be at least 1")])
    }
}
