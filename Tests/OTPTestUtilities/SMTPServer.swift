import Foundation
import OTPTestUtilities
import Testing

/// aio-libs' `aiosmtpd` (PyPI, put in place by `.ci/install`) on a loopback port: STARTTLS with a
/// certificate it makes for 127.0.0.1, `AUTH` required after it (`mailer` / `s3cret`), recipients
/// starting `reject` refused with 550. Each message it accepts is parsed by Python's own `email`
/// package and written to standard output as one JSON line, which ``messages()`` reads.
public struct SMTPServer: Sendable {
    public static let aiosmtpdPath = "/opt/otpkit-python/aiosmtpd-1.4.6"

    static let script = #"""
        import asyncio, datetime, email, email.policy, ipaddress, json, os, sys
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
        from aiosmtpd.smtp import SMTP, AuthResult
        import ssl

        directory = sys.argv[1]
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
        cert_path, key_path = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
        with open(cert_path, "wb") as file:
            file.write(certificate.public_bytes(serialization.Encoding.PEM))
        with open(key_path, "wb") as file:
            file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert_path, key_path)

        class Handler:
            received = 0

            async def handle_RCPT(self, server, session, envelope, address, options):
                if address.startswith("reject"):
                    return "550 5.1.1 no such mailbox"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
                Handler.received += 1
                print("MESSAGE %d " % Handler.received + json.dumps({
                    "mailFrom": envelope.mail_from, "rcptTo": envelope.rcpt_tos, "tls": session.ssl is not None,
                    "login": session.authenticated and session.auth_data.login.decode(),
                    "subject": str(message["subject"]), "from": str(message["from"]), "to": str(message["to"]),
                    "contentType": message.get_content_type(), "charset": message.get_content_charset(),
                    "messageID": str(message["message-id"]), "date": str(message["date"]),
                    "body": message.get_content(),
                }), flush=True)
                return "250 OK"

        def authenticate(server, session, envelope, mechanism, auth_data):
            valid = auth_data.login == b"mailer" and auth_data.password == b"s3cret"
            # handled=False: aiosmtpd itself answers a failure with 535.
            return AuthResult(success=valid, handled=False, auth_data=auth_data)

        async def main():
            loop = asyncio.get_running_loop()
            server = await loop.create_server(
                lambda: SMTP(Handler(), tls_context=context, require_starttls=True, authenticator=authenticate, auth_require_tls=True,
                             auth_required=True),
                "127.0.0.1", 0)
            # A listener that never answers, for the sender's timeout.
            silent = await loop.create_server(asyncio.Protocol, "127.0.0.1", 0)
            print(json.dumps({"port": server.sockets[0].getsockname()[1], "silentPort": silent.sockets[0].getsockname()[1],
                              "ca": cert_path}), flush=True)
            await asyncio.Event().wait()

        asyncio.run(main())
        """#

    /// The port speaking SMTP.
    public let port: Int
    /// A port that accepts connections and never answers.
    public let silentPort: Int
    /// The PEM file of the server's self-signed certificate, to verify it with.
    public let certificateAuthorityFile: String
    let session: ProcessSession

    /// Runs `body` with the server started in a directory of its own, which holds its certificate.
    public static func with(_ body: (SMTPServer) async throws -> Void) async throws {
        let python = try ExternalTool.debianPython3.path()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment: [String: String?] = ["PYTHONPATH": aiosmtpdPath]
        let probe = try await ProcessRunner.run(python, ["-c", "import aiosmtpd"], environment: environment)
        try #require(
            probe.status == 0, "aiosmtpd is missing from \(aiosmtpdPath): run `bash .ci/install` (bash Tests/test.sh does): \(probe.stderr)")
        _ = try await ProcessRunner.converse(python, ["-c", script, directory.path], environment: environment) { session in
            defer { try? session.send(signal: SIGTERM) }
            let first = try await session.waitForOutput(containing: "\n")
            let line = String(first.split(separator: "\n")[0])
            let settings = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(first)")
            try await body(
                SMTPServer(
                    port: try #require(settings["port"] as? Int), silentPort: try #require(settings["silentPort"] as? Int),
                    certificateAuthorityFile: try #require(settings["ca"] as? String), session: session))
        }
    }

    /// The messages received so far once there are `count` of them, each as Python's `email`
    /// package parsed it. Each is a line `MESSAGE n {json}`, so the wait is for the `count`-th one
    /// (``ProcessSession/waitForOutput(containing:timeout:)``, which fails after its timeout).
    public func messages(count: Int) async throws -> [[String: Any]] {
        let text = try await count == 0 ? session.waitForOutput(containing: "\n") : session.waitForOutput(containing: "MESSAGE \(count) ")
        return try text.split(separator: "\n").filter { $0.hasPrefix("MESSAGE ") }.map { line in
            let json = line.drop { $0 != "{" }
            return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(line)")
        }
    }
}
