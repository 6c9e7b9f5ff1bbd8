import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OTPTestUtilities
import Testing

/// The built `otpkit-server` running on loopback on a port it picked, in a temporary directory
/// with a new SQLite database and sealing key; stopped with SIGTERM when the body returns, after
/// which it must have exited 0.
struct ServerProcess {
    let port: Int
    let projectID: String
    let directory: TemporaryDirectory
    let client: HTTPClient

    struct Answer {
        let status: Int
        let body: String
        /// The `Location` header, for a redirect.
        var location: String? = nil
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
        /// The `error.message` of an error answer.
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }

    /// Runs `body` against a server started with `arguments` beside `--db` (`database`, or
    /// `otpkit.sqlite` in the directory), `--key-file`, `--project-id` and `--port 0`.
    ///
    /// The sealing key and the database live in `directory`, made for the call and removed after
    /// it when `nil`; a directory given is kept, so a second server finds what the first left.
    static func with(
        arguments: [String] = ["--emulator"], projectID: String = "demo-otpkit", in directory: TemporaryDirectory? = nil,
        database: String? = nil, _ body: (ServerProcess) async throws -> Void
    ) async throws {
        let place = try directory ?? TemporaryDirectory()
        defer { if directory == nil { place.remove() } }
        try await run(arguments: arguments, projectID: projectID, directory: place, database: database, body)
    }

    private static func run(
        arguments: [String], projectID: String, directory: TemporaryDirectory, database: String?, _ body: (ServerProcess) async throws -> Void
    ) async throws {
        let keyFile = try sealingKeyFile(in: directory)
        try await with(
            commandLine: ["--db", database ?? directory.file("otpkit.sqlite"), "--key-file", keyFile, "--project-id", projectID, "--port", "0"]
                + arguments,
            projectID: projectID, in: directory, body)
    }

    /// Runs `body` against a server started with exactly `commandLine` and `environment` added to
    /// the inherited one (every `OTPKIT_SERVER_*` variable of the test's own environment removed,
    /// so only the test decides them); `projectID` is the one the server is expected to serve.
    /// `standardError`, when given, gets what the server wrote there, once it has exited.
    static func with(
        commandLine: [String], environment: [String: String] = [:], projectID: String, in directory: TemporaryDirectory,
        standardError: ((String) -> Void)? = nil, _ body: (ServerProcess) async throws -> Void
    ) async throws {
        let executable = try BuiltProduct.path("otpkit-server")
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        // A failed expectation in the body throws past the conversation; the client must still be
        // shut down, or its deinit stops the whole test process.
        do {
            let output = try await ProcessRunner.converse(executable, commandLine, environment: serverEnvironment(environment)) { session in
                let text = try await session.waitForOutput(containing: "\n", timeout: .seconds(120))
                let port = try #require(Int(text.split(separator: "\n").first ?? ""), "the server's first line is not a port: \(text)")
                let server = ServerProcess(port: port, projectID: projectID, directory: directory, client: client)
                do {
                    try await body(server)
                } catch {
                    try? session.send(signal: SIGTERM)
                    throw error
                }
                try session.send(signal: SIGTERM)
            }
            try await client.shutdown()
            #expect(output.status == 0, "otpkit-server did not exit 0 after SIGTERM: \(output)")
            standardError?(output.stderr)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The environment changes for a server run: `added`, and every inherited `OTPKIT_SERVER_*`
    /// variable not in it removed.
    static func serverEnvironment(_ added: [String: String]) -> [String: String?] {
        var environment: [String: String?] = [:]
        for name in ProcessInfo.processInfo.environment.keys where name.hasPrefix("OTPKIT_SERVER_") { environment[name] = .some(nil) }
        for (name, value) in added { environment[name] = value }
        return environment
    }

    /// The sealing key file in `directory`, written (mode 0600) when missing.
    static func sealingKeyFile(in directory: TemporaryDirectory) throws -> String {
        let keyFile = directory.file("sealing.key")
        if !FileManager.default.fileExists(atPath: keyFile) {
            let key = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            try #require(FileManager.default.createFile(atPath: keyFile, contents: Data(key.utf8), attributes: [.posixPermissions: 0o600]))
        }
        return keyFile
    }

    /// Starts the server once per case with the case's extra options, and expects each start to
    /// stop with usage status 64 and a message that contains the case's text.
    static func expectRefusedAtStart(_ cases: [(value: [String], says: String)]) async throws {
        let executable = try BuiltProduct.path("otpkit-server")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = try sealingKeyFile(in: directory)
        for (value, says) in cases {
            let run = try await ProcessRunner.run(
                executable,
                ["--db", directory.file("otpkit.sqlite"), "--key-file", keyFile, "--project-id", "demo-otpkit", "--port", "0", "--emulator"] + value)
            #expect(run.status == 64, "\(value): \(run)")
            #expect(run.stderr.contains(says), "\(value): \(run.stderr)")
        }
    }

    /// Sends `body` to `path` as the SDKs do: POST, `Content-Type: application/json`, the SDK's headers.
    func post(
        _ path: String, _ body: String, headers: [(String, String)] = [], method: HTTPMethod = .POST, contentType: String = "application/json"
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Content-Type", value: contentType)
        request.headers.add(name: "X-Client-Version", value: "iOS/FirebaseSDK/11.0.0/FirebaseCore-iOS")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if method == .POST { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return Answer(status: Int(response.status.code), body: String(buffer: bytes))
    }

    func get(_ path: String) async throws -> Answer {
        try await post(path, "", method: .GET)
    }
}

extension ServerProcess: CustomReflectable {
    /// Only the port: a failed expectation's description never walks into the HTTP client's event
    /// loops, which their threads change meanwhile.
    var customMirror: Mirror { Mirror(self, children: ["port": port]) }
}

extension ServerProcess {
    /// The response headers of a GET of `path` addressed to `host` (the `Host` header a client
    /// sends), as name and value pairs.
    func headers(_ path: String, host: String) async throws -> [(String, String)] {
        var request = HTTPClientRequest(url: base + path)
        request.headers.add(name: "Host", value: host)
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.headers.map { ($0.name, $0.value) }
    }
}
