/// What kind of failure a durable store reported, whichever database it is: what a caller needs to
/// decide between retrying later, asking for other input and giving up.
///
/// A struct of named values rather than an enum, as postgres-nio's `PSQLError.Code`, so that a new
/// backend or release can add a kind without breaking a caller's `switch`.
public struct StoreFailureKind: Hashable, Sendable, CustomStringConvertible {
    private enum Base: String, Hashable, Sendable {
        case configuration, unavailable, access, incompatible, storage, damagedRecord, refused, closed
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// What the caller gave cannot work: a malformed URL or variable, rows sealed under a key that
    /// was not given. Fix the input; retrying as is fails again.
    public static let configuration = Self(.configuration)
    /// The database is out of reach, busy, or lost the connection: retry later.
    public static let unavailable = Self(.unavailable)
    /// The database server was reached but refused the connection: the login, the database's
    /// name or TLS. Fix the credentials or the server's setup.
    public static let access = Self(.access)
    /// The database is not one this OTPKit can use: not a database, another application's, a
    /// newer schema, a shipped migration changed.
    public static let incompatible = Self(.incompatible)
    /// The storage refused to write: read-only, full, or unopenable.
    public static let storage = Self(.storage)
    /// A stored record is damaged or does not open under the keys given.
    public static let damagedRecord = Self(.damagedRecord)
    /// The database refused an operation for a reason of its own (its error code says which).
    public static let refused = Self(.refused)
    /// The store was used after it was closed: a bug in the caller.
    public static let closed = Self(.closed)

    /// Whether the same operation may succeed if tried again later, unchanged.
    public var isTransient: Bool { self == .unavailable }

    public var description: String { base.rawValue }
}

/// A durable store's error that says what kind of failure it is, so that callers classify the
/// failures of every backend in one place.
public protocol ClassifiedStoreError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    var kind: StoreFailureKind { get }
}
