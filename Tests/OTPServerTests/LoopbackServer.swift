import Foundation
import OTPTestUtilities
import Testing

/// A server listening on loopback, which clients nobody here wrote reach by its address: the
/// built executable (``ServerProcess``) or the routes served in process (``InProcessServer`` made
/// `live`).
protocol LoopbackServer: IdentityToolkitTestClient {
    /// The address clients reach it at: `http://HOST:PORT`.
    var base: String { get }
    /// `HOST:PORT`, as `FIREBASE_AUTH_EMULATOR_HOST` takes it.
    var hostAndPort: String { get }
}

extension LoopbackServer {
    var base: String { "http://" + hostAndPort }

    /// Runs `script` after ``ServerProcess/firebaseAdminPrelude`` with firebase-admin-python
    /// against this server, `arguments` after the project id, and reads its standard output as one
    /// JSON object. A missing firebase-admin fails the test, naming the command that installs it.
    func firebaseAdmin(_ script: String, _ arguments: [String] = []) async throws -> [String: Any] {
        let python = try ExternalTool.debianPython3.path()
        let environment: [String: String?] = [
            "PYTHONPATH": ServerProcess.firebaseAdminPath + ":" + ServerProcess.bcryptPath, "FIREBASE_AUTH_EMULATOR_HOST": hostAndPort,
        ]
        let probe = try await ProcessRunner.run(python, ["-c", "import firebase_admin"], environment: environment)
        try #require(
            probe.status == 0,
            "firebase-admin is missing from \(ServerProcess.firebaseAdminPath): run `bash .ci/install` (bash Tests/test.sh does): \(probe.stderr)")
        let run = try await ProcessRunner.run(
            python, ["-c", ServerProcess.firebaseAdminPrelude + script, projectID] + arguments, environment: environment)
        try #require(run.status == 0, "firebase-admin failed: \(run)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any], "\(run)")
    }
}

extension ServerProcess: LoopbackServer {
    var hostAndPort: String { "127.0.0.1:\(port)" }

    /// Where `.ci/install` puts firebase-admin (pip --target).
    static let firebaseAdminPath = "/opt/otpkit-python/firebase-admin-7.7.0"
    /// Where `.ci/install` puts pyca's bcrypt, which the firebase-admin scripts may import too.
    static let bcryptPath = "/opt/otpkit-python/bcrypt-5.0.0"

    /// What every firebase-admin script starts with: the SDK pointed at the server by
    /// `FIREBASE_AUTH_EMULATOR_HOST`, for the project in `sys.argv[1]`.
    static let firebaseAdminPrelude = """
        import json, sys, time
        import firebase_admin.exceptions
        import firebase_admin
        from firebase_admin import auth
        firebase_admin.initialize_app(options={"projectId": sys.argv[1]})

        """
}

extension InProcessServer: LoopbackServer {
    /// HummingbirdTesting's live server listens on `localhost`.
    var hostAndPort: String { "localhost:\(port)" }
}
