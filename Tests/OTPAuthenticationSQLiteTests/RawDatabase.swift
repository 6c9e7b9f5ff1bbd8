import SQLiteNIO

/// Direct SQL on a test database, to look at or damage what the store wrote.
enum RawDatabase {
    static func open(_ path: String) async throws -> SQLiteConnection {
        try await SQLiteConnection.open(storage: .file(path: path))
    }

    /// Runs `body` on a plain connection and always closes it (sqlite-nio traps on an unclosed one).
    static func with<Result>(_ path: String, _ body: (SQLiteConnection) async throws -> Result) async throws -> Result {
        let connection = try await open(path)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

extension SQLiteConnection {
    /// The first column of the first row, as text.
    func value(_ sql: String, _ binds: [SQLiteData] = []) async throws -> String? {
        try await query(sql, binds).first?.columns.first.flatMap { column in
            column.data.isNull ? nil : column.data.description.trimmingCharacters(in: ["\""])
        }
    }
}
