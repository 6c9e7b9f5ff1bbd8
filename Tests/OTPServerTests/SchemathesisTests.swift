import Foundation
import OTPTestUtilities
import Testing

/// `otpkit-server --emulator` property-tested by Schemathesis (PyPI) against the Identity
/// Toolkit's published OpenAPI description (`../shared/identitytoolkit-openapi.json`, from the
/// Firebase emulator's sources): for every operation of the description but tenants', no 5xx, every
/// 200 in its declared schema, JSON where JSON is declared, every error in Google's error shape
/// with its status as its code, and no password repeated back (`Tests/Schemathesis/otpkit_checks.py`).
///
/// Each group of operations gets the headers its callers send: clients an API key, administrators
/// the emulator's `Bearer owner`. A fixed seed and deterministic generation make a failure here the
/// same failure on every machine. `OTPKIT_SCHEMATHESIS_EXAMPLES` raises the examples per operation
/// (5 by default) for a long run.
@Suite struct SchemathesisTests {
    static let schemathesisPath = "/opt/otpkit-python/schemathesis-4.32.5"
    static let description = Fixture.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/identitytoolkit-openapi.json")
    static let checks = "not_a_server_error,response_schema_conformance,content_type_conformance,google_error_shape,no_password_echoed"

    /// One run of Schemathesis: the operations whose path matches `paths`, under `base`, with `headers`.
    struct Group: Sendable, CustomStringConvertible {
        let name: String
        let base: String
        let paths: String
        let headers: [String]
        var description: String { name }
    }

    static let groups = [
        Group(
            name: "client calls", base: "/identitytoolkit.googleapis.com",
            paths: #"^/v[12]/(accounts|projects$|recaptchaParams|sessionCookiePublicKeys|passwordPolicy|recaptchaConfig|defaultSupportedIdps)"#,
            headers: ["X-Goog-Api-Key: fake-api-key"]),
        Group(
            name: "administrator calls", base: "/identitytoolkit.googleapis.com", paths: #"^/v[12]/projects/\{targetProjectId\}(?!/tenants)"#,
            headers: ["X-Goog-Api-Key: fake-api-key", "Authorization: Bearer owner"]),
        Group(name: "token refresh", base: "/securetoken.googleapis.com", paths: "^/v1/token$", headers: ["X-Goog-Api-Key: fake-api-key"]),
        Group(
            name: "the emulator's own calls", base: "",
            paths: #"^/emulator/v1/projects/\{targetProjectId\}/(accounts|oobCodes|verificationCodes|config)$"#,
            headers: ["Authorization: Bearer owner"]),
    ]

    @Test(arguments: groups)
    func operationsHoldToTheDescription(_ group: Group) async throws {
        let python = try ExternalTool.debianPython3.path()
        let environment: [String: String?] = [
            "PYTHONPATH": Self.schemathesisPath + ":" + Fixture.repositoryRoot.appendingPathComponent("Tests/Schemathesis").path,
            "SCHEMATHESIS_HOOKS": "otpkit_checks",
        ]
        let probe = try await ProcessRunner.run(python, ["-c", "import schemathesis"], environment: environment)
        try #require(
            probe.status == 0,
            "Schemathesis is missing from \(Self.schemathesisPath): run `bash .ci/install` (bash Tests/test.sh does): \(probe.stderr)")
        try #require(
            FileManager.default.fileExists(atPath: Self.description.path), "the OpenAPI description is missing: expected \(Self.description.path)")
        let examples = ProcessInfo.processInfo.environment["OTPKIT_SCHEMATHESIS_EXAMPLES"] ?? "5"
        // Passkeys on, so that their endpoints answer their options and take responses apart.
        let arguments = ["--emulator", "--passkey-rp-id", "localhost", "--passkey-origin", "http://localhost:9099"]
        try await ServerProcess.with(arguments: arguments) { server in
            let configuration = server.directory.file("schemathesis.toml")
            try "[parameters]\ntargetProjectId = \"\(server.projectID)\"\n".write(toFile: configuration, atomically: true, encoding: .utf8)
            let run = try await ProcessRunner.run(
                python,
                ["-m", "schemathesis.cli", "--config-file", configuration, "--no-color", "run", Self.description.path]
                    + ["--url", "http://127.0.0.1:\(server.port)\(group.base)", "--include-path-regex", group.paths]
                    + ["--checks", Self.checks, "--max-examples", examples, "--seed", "20261129", "--generation-deterministic"]
                    + ["--generation-with-security-parameters", "false", "--warnings", "off"]
                    + group.headers.flatMap { ["-H", $0] },
                // Hypothesis keeps its examples in the working directory: the run's own, not the repository.
                environment: environment, workingDirectory: server.directory.path)
            let report = run.stdout.split(separator: "\n").suffix(60).joined(separator: "\n")
            #expect(run.status == 0, "Schemathesis found failures in the \(group.name):\n\(report)\n\(run.stderr)")
            #expect(run.stdout.contains(" passed"), "no test case ran: \(report)")
        }
    }
}
