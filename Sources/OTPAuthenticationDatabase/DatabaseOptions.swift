package import ArgumentParser
package import OTPSealing

/// `--db`, `--key-file` and `--previous-key-file`, as every program that opens a store takes them
/// (`totp-enrollment`'s commands and `otpkit-server`).
package struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The SQLite database file (created when missing), or a PostgreSQL URL: postgres://user@host:port/database or postgresql://… (libpq's PG* variables give what it leaves out).",
            valueName: "file|url"))
    package var database: String

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "The sealing key: 64 hex characters or 32 raw bytes (default: $\(SealingKey.defaultEnvironmentVariable)).", valueName: "file"))
    package var keyFile: String?

    @Option(
        name: .customLong("previous-key-file"),
        help: ArgumentHelp(
            "An earlier sealing key whose rows still open (repeatable); `reseal` moves them to the current key.", valueName: "file"))
    package var previousKeyFiles: [String] = []

    package init() {}

    /// Where `--db` points.
    package var location: DatabaseLocation { DatabaseLocation(database) }

    /// The current key (`--key-file` or the environment) and the previous ones.
    package func sealer() throws(SealingError) -> SecretSealer {
        let current = try SealingKey.load(file: keyFile, environmentVariable: SealingKey.defaultEnvironmentVariable)
        var previous: [SealingKey] = []
        for file in previousKeyFiles { previous.append(try SealingKey(contentsOfFile: file)) }
        return try SecretSealer(current: current, previous: previous)
    }
}
