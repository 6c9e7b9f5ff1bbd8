internal import Foundation

// The two file formats of `firebase auth:export` and `auth:import` (firebase-tools'
// accountExporter.ts and accountImporter.ts).
extension FirebaseUserRecord {
    /// The providers firebase-tools' CSV has columns for, in their order: each takes four columns
    /// (raw id, email, display name, photo URL) from ``csvColumn(ofProviderAt:)``.
    package static let csvProviders = [
        "google.com", "facebook.com", "twitter.com", "github.com", "apple.com", "microsoft.com", "gc.apple.com", "playgames.google.com",
        "linkedin.com", "yahoo.com",
    ]

    /// The CSV column of the raw id of the provider at `position` in ``csvProviders``: the first
    /// four from column 7, the others (added later, after the account's own columns) from 28.
    package static func csvColumn(ofProviderAt position: Int) -> Int {
        position < 4 ? 7 + 4 * position : 28 + 4 * (position - 4)
    }

    /// The users of a JSON export, `{"users": [ … ]}`.
    /// - Throws: `INVALID_ARGUMENT` naming the first place the file is not such JSON.
    package static func records(json: [UInt8]) throws(AdminRequestError) -> [FirebaseUserRecord] {
        struct File: Decodable { var users: [FirebaseUserRecord] }
        do {
            return try JSONDecoder().decode(File.self, from: Data(json)).users
        } catch let error as DecodingError {
            throw .invalidArgument("the file is not the JSON of firebase auth:export: \(describe(error))")
        } catch {
            throw .invalidArgument("the file is not the JSON of firebase auth:export")
        }
    }

    /// The users of a CSV export: one line a user, no header, columns as ``csvProviders`` says.
    /// Fields are trimmed and empty ones absent, as firebase-tools reads them.
    /// - Throws: `INVALID_ARGUMENT` naming the line of a malformed field or quote.
    package static func records(csv: [UInt8]) throws(AdminRequestError) -> [FirebaseUserRecord] {
        var records: [FirebaseUserRecord] = []
        for (index, row) in try CSVRows.parse(csv).enumerated() where !(row.count == 1 && row[0].isEmpty) {
            records.append(try record(csvRow: row, line: index + 1))
        }
        return records
    }

    private static func record(csvRow row: [String], line: Int) throws(AdminRequestError) -> FirebaseUserRecord {
        func field(_ column: Int) -> String? {
            guard column < row.count else { return nil }
            let value = row[column].trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }
        func boolean(_ column: Int, _ name: String) throws(AdminRequestError) -> Bool? {
            switch field(column)?.lowercased() {
            case nil: return nil
            case "true": return true
            case "false": return false
            case let other?: throw .invalidArgument("line \(line): \(name) is \(other.prefix(20)), not true or false")
            }
        }
        func milliseconds(_ column: Int, _ name: String) throws(AdminRequestError) -> Int64Value? {
            guard let text = field(column) else { return nil }
            guard let value = Int64(text) else { throw .invalidArgument("line \(line): \(name) is not a whole number of milliseconds") }
            return Int64Value(value)
        }
        var record = FirebaseUserRecord()
        record.localId = field(0)
        record.email = field(1)
        record.emailVerified = try boolean(2, "emailVerified")
        record.passwordHash = field(3)
        record.salt = field(4)
        record.displayName = field(5)
        record.photoUrl = field(6)
        record.createdAt = try milliseconds(23, "createdAt")
        record.lastLoginAt = try milliseconds(24, "lastLoginAt")
        record.phoneNumber = field(25)
        record.disabled = try boolean(26, "disabled")
        record.customAttributes = field(27)
        var providers: [Provider] = []
        for (position, providerID) in csvProviders.enumerated() {
            let first = csvColumn(ofProviderAt: position)
            guard let rawID = field(first) else { continue }
            providers.append(Provider(providerId: providerID, rawId: rawID, email: field(first + 1), displayName: field(first + 2)))
        }
        record.providerUserInfo = providers.isEmpty ? nil : providers
        return record
    }

    /// Where a decoding error happened, as `users[3].createdAt`, and what it was.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not JSON" : "\(path(context.codingPath)) is malformed"
        @unknown default:
            return "it cannot be read"
        }
    }
}
