import Foundation
import OTPTestUtilities
import Testing

extension ServerProcess {
    /// Where `.ci/install` puts firebase-admin (pip --target).
    static let firebaseAdminPath = "/opt/otpkit-python/firebase-admin-7.7.0"

    /// What every firebase-admin script starts with: the SDK pointed at the server by
    /// `FIREBASE_AUTH_EMULATOR_HOST`, for the project in `sys.argv[1]`.
    static let firebaseAdminPrelude = """
        import json, sys, time
        import firebase_admin.exceptions
        import firebase_admin
        from firebase_admin import auth
        firebase_admin.initialize_app(options={"projectId": sys.argv[1]})

        """

    /// Runs `script` after ``firebaseAdminPrelude`` with firebase-admin-python against this
    /// server, `arguments` after the project id, and reads its standard output as one JSON object.
    /// A missing firebase-admin fails the test, naming the command that installs it.
    func firebaseAdmin(_ script: String, _ arguments: [String] = []) async throws -> [String: Any] {
        let python = try ExternalTool.debianPython3.path()
        let environment: [String: String?] = [
            "PYTHONPATH": Self.firebaseAdminPath, "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(port)",
        ]
        let probe = try await ProcessRunner.run(python, ["-c", "import firebase_admin"], environment: environment)
        try #require(
            probe.status == 0,
            "firebase-admin is missing from \(Self.firebaseAdminPath): run `bash .ci/install` (bash Tests/test.sh does): \(probe.stderr)")
        let run = try await ProcessRunner.run(python, ["-c", Self.firebaseAdminPrelude + script, projectID] + arguments, environment: environment)
        try #require(run.status == 0, "firebase-admin failed: \(run)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any], "\(run)")
    }
}
