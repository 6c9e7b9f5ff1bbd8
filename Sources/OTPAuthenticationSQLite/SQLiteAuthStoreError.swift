public import OTPDurableStore
public import OTPSealing

/// An error from ``SQLiteAuthStore``: opening the database, its schema, its sealed secrets,
/// or SQLite itself.
///
/// Every case says which file and what to do. None carries a secret, a key, or sealed bytes.
public enum SQLiteAuthStoreError: Error, Hashable, Sendable {
    /// The database file cannot be opened or created (a missing directory, no permission…).
    case cannotOpen(path: String, reason: String)
    /// The file or its directory is read-only, so SQLite cannot write the database, its `-wal` or its `-shm` file.
    case readOnly(path: String, reason: String)
    /// The file is not an SQLite database (or its header is destroyed).
    case notADatabase(path: String)
    /// The file is an SQLite database of some other application.
    case notAnOTPKitDatabase(path: String)
    /// SQLite found damaged pages or indexes.
    case corrupt(path: String, detail: String)
    /// The database was written by a newer OTPKit, whose schema this version does not know.
    case schemaTooNew(path: String, version: Int, supported: Int)
    /// A migration recorded in the database differs from the one this OTPKit ships: migrations never change.
    case migrationChanged(path: String, version: Int)
    /// Rows are sealed under keys that were not given; the store refuses to start without them.
    case missingSealingKeys(path: String, keyIDs: [SealingKeyID], currentKeyID: SealingKeyID)
    /// A sealed secret failed to open (altered, copied from another record, or its key is wrong).
    case unusableSecret(recordID: String, SealingError)
    /// A stored row holds a value no OTPKit writes.
    case invalidRecord(recordID: String, detail: String)
    /// Another process held the database lock for longer than the busy timeout.
    case busy(path: String, timeoutMilliseconds: Int)
    /// The disk is full.
    case diskFull(path: String)
    /// Another SQLite failure, with SQLite's message.
    case database(path: String, message: String)
    /// The store was used after ``SQLiteAuthStore/close()``.
    case closed(path: String)
    /// A time step is beyond what the database stores (above `Int64.max`); no real clock reaches it.
    case stepOutOfRange(UInt64)
}

extension SQLiteAuthStoreError: CustomStringConvertible {
    /// A one-line message saying what was wrong and how to fix it.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open enrollment database \(path): \(reason)"
        case .readOnly(let path, let reason):
            "enrollment database \(path) is read-only (\(reason)): the file and its directory must be writable, since SQLite keeps \(path)-wal and \(path)-shm beside it"
        case .notADatabase(let path):
            "\(path) is not an SQLite database (corrupt or another kind of file): restore it from a backup or point to another file"
        case .notAnOTPKitDatabase(let path):
            "\(path) is an SQLite database of another application: use a separate file for OTPKit"
        case .corrupt(let path, let detail):
            "enrollment database \(path) is corrupt (\(detail)): restore it from a backup"
        case .schemaTooNew(let path, let version, let supported):
            "enrollment database \(path) has schema version \(version), but this OTPKit knows versions up to \(supported): upgrade OTPKit"
        case .migrationChanged(let path, let version):
            "enrollment database \(path) was migrated with a different migration \(version) than this OTPKit ships: shipped migrations must never change"
        case .missingSealingKeys(let path, let keyIDs, let current):
            "enrollment database \(path) holds secrets sealed under key \(keyIDs.map(\.description).joined(separator: ", ")), "
                + "but the key given is \(current): pass the key they were sealed with (as the current key, or as a previous key to re-seal)"
        case .unusableSecret(let recordID, let error):
            "the sealed secret of \(recordID) cannot be opened: \(error)"
        case .invalidRecord(let recordID, let detail):
            "stored record \(recordID) is invalid: \(detail)"
        case .busy(let path, let timeout):
            "enrollment database \(path) stayed locked by another process for more than \(timeout) ms"
        case .diskFull(let path):
            "the disk holding enrollment database \(path) is full"
        case .database(let path, let message):
            "enrollment database \(path): \(message)"
        case .closed(let path):
            "enrollment database \(path) was used after it was closed"
        case .stepOutOfRange(let step):
            "time step \(step) is out of range"
        }
    }
}

extension SQLiteAuthStoreError: ClassifiedStoreError {
    public var kind: StoreFailureKind {
        switch self {
        case .missingSealingKeys: .configuration
        case .busy: .unavailable
        case .notADatabase, .notAnOTPKitDatabase, .schemaTooNew, .migrationChanged: .incompatible
        case .cannotOpen, .readOnly, .diskFull: .storage
        case .corrupt, .unusableSecret, .invalidRecord: .damagedRecord
        case .database, .stepOutOfRange: .refused
        case .closed: .closed
        }
    }
}
