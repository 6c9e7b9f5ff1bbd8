import OTPTestUtilities

/// Runs the built `totp` executable as a user would, through the shared process runner.
enum TOTPProcess {
    /// The `totp` built beside the tests; `TOTP_EXECUTABLE` names another, for testing an
    /// installed binary.
    static func executable() throws -> String {
        try BuiltProduct.path("totp", overrideVariable: "TOTP_EXECUTABLE")
    }

    /// Runs `totp arguments…` with `input` on standard input and `environment` added to (or, for
    /// nil values, removed from) the inherited environment.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String?] = [:]) async throws -> ProcessOutput {
        // A TOTP_SECRET in the environment of whoever runs the tests would stand in for a missing secret.
        var environment = environment
        if environment.index(forKey: "TOTP_SECRET") == nil { environment.updateValue(nil, forKey: "TOTP_SECRET") }
        return try await ProcessRunner.run(executable(), arguments, input: input.map { Array($0.utf8) }, environment: environment)
    }

    /// Runs `totp` under a pseudo-terminal (util-linux `script`), as if typed at a terminal;
    /// interrupted after `timeoutSeconds` when given, for commands that run until stopped.
    static func runInTerminal(_ arguments: [String], timeoutSeconds: Double? = nil) async throws -> ProcessOutput {
        var command = try [executable()] + arguments
        if let timeoutSeconds { command = try [ExternalTool.timeout.path(), "-s", "INT", "\(timeoutSeconds)"] + command }
        let line = command.map(ProcessRunner.shellQuoted).joined(separator: " ")
        return try await ProcessRunner.run(
            ExternalTool.script.path(), ["-qec", line, "/dev/null"], environment: ["TOTP_SECRET": nil])
    }
}
