/// An entry of an export that was not imported, where it was and why.
public struct SkippedEntry: Hashable, Sendable, CustomStringConvertible {
    /// Where an entry is in its export.
    public enum Position: Hashable, Sendable, CustomStringConvertible {
        /// A line of a text export, counted from 1.
        case line(Int)
        /// An entry of a JSON export, counted from 1 in the export's own order; also a text given
        /// to ``Importer/importGoogleMigration(uris:)`` or an account given to ``GoogleMigrationExport``.
        case entry(Int)

        /// `line 3` or `entry 3`.
        public var description: String {
            switch self {
            case .line(let number): "line \(number)"
            case .entry(let number): "entry \(number)"
            }
        }
    }

    /// Where the entry is.
    public let position: Position
    /// The entry's issuer and account as the export names them (`GitHub:alice`), when it names
    /// them, so a person can tell which account is missing; never the secret.
    public let label: String?
    /// Why it was not imported.
    public let reason: SkipReason

    /// Creates a skipped entry.
    public init(position: Position, label: String?, reason: SkipReason) {
        self.position = position
        self.label = label
        self.reason = reason
    }

    /// One line: `entry 7 (Boeing:Sophia): Steam Guard codes are not supported`.
    public var description: String {
        let name = label.map { " (\(ImportError.abbreviated($0)))" } ?? ""
        return "\(position)\(name): \(reason)"
    }
}
