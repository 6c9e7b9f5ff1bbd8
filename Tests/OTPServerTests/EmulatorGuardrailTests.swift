import Hummingbird
import HummingbirdTesting
import OTPCore
import OTPServer
import Testing

/// `--emulator` accepts any API key and `Bearer owner`: it must stay on this machine.
@Suite("Emulator guardrails")
struct EmulatorGuardrailTests {
    @Test("loopback names and addresses pass; other names, rebinding look-alikes and other addresses do not")
    func loopbackNames() {
        for authority in ["localhost:9099", "LOCALHOST", "127.0.0.1:9099", "127.1.2.3", "[::1]:9099", "[::1]", "app.localhost:9099"] {
            #expect(LoopbackHost.contains(authority: authority), "\(authority)")
        }
        for authority in [
            "attacker.example:9099", "127.0.0.1.attacker.example", "localhost.attacker.example", "10.0.0.5", "[::2]", "0.0.0.0", "127.0.0.256",
            "[::1", "",
        ] {
            #expect(!LoopbackHost.contains(authority: authority), "\(authority)")
        }
    }

    @Test("the executable under --emulator answers 403 in Google's error shape to a request addressed to another name")
    func hostHeaderIsChecked() async throws {
        try await ServerProcess.with { server in
            for (host, status) in [("attacker.example:\(server.port)", "403"), ("localhost:\(server.port)", "200")] {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                let (bytes, _) = try await connection.readUntilClosed(timeout: .seconds(60))
                let answer = String(decoding: bytes, as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 \(status) "), "\(host): \(answer)")
                if status == "403" {
                    #expect(
                        answer.contains(#""status":"PERMISSION_DENIED""#) && answer.contains("PERMISSION_DENIED : the emulator answers"), "\(answer)")
                }
            }
        }
    }

    @Test("--emulator on an address other than loopback stops the start unless --emulator-allow-remote is given")
    func remoteEmulatorIsRefused() async throws {
        try await ServerProcess.expectRefusedAtStart([
            (["--host", "0.0.0.0"], "--emulator accepts any API key and Bearer owner as an administrator, so it listens on loopback only"),
            (["--host", "192.0.2.1"], "give --emulator-allow-remote to serve it on 192.0.2.1 anyway"),
        ])
        try await ServerProcess.with(arguments: ["--emulator", "--host", "0.0.0.0", "--emulator-allow-remote"]) { server in
            let ready = try await server.get("/")
            #expect(ready.status == 200)
        }
    }
}
