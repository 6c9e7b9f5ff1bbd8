internal import OTPCore

/// One versioned schema change of a durable store. A shipped migration never changes: the database
/// records each applied migration's SHA-256, and opening fails when the shipped text differs.
/// Change a schema by appending a migration.
package struct Migration: Sendable {
    /// The version this migration brings the schema to; versions start at 1 and increase by 1.
    package let version: Int
    /// What it does, recorded beside it.
    package let summary: String
    /// One statement per element (SQLite prepares only the first statement of a string).
    package let statements: [String]

    package init(version: Int, summary: String, statements: [String]) {
        self.version = version
        self.summary = summary
        self.statements = statements
    }

    /// The SHA-256 of the statements, as lowercase hexadecimal.
    package var checksum: String {
        Checksum.sha256Hex(statements.joined(separator: ";\n").utf8) ?? ""
    }
}
