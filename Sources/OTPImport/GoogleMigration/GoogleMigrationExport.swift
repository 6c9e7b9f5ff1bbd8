public import OTPCore
public import OTPURI

/// Accounts written as Google Authenticator migration URIs (`otpauth-migration://offline?data=…`),
/// the texts of the QR codes Google Authenticator's "Transfer accounts → Import" scans.
///
/// As Aegis writes them: ``accountsPerCode`` accounts a URI, one random batch id shared by all of
/// them, `batch_size` and `batch_index` (from 0) set, payload version 1, the Base64 percent-encoded
/// (`%2B`, `%2F`, `%3D`) so no reader takes a `+` for a space. Draw each URI as a QR code in order.
///
/// The format has no period field and only 6 or 8 digits, so a TOTP account with another period,
/// an account with 7, 9 or 10 digits, or a Steam account (`encoder=steam`) cannot be carried: it
/// is left out and reported in ``skipped``. Parameters the format does not define (`image`, …)
/// are dropped. The URIs hold the secrets: show them only to their owner.
public struct GoogleMigrationExport: Sendable {
    /// The number of accounts in each URI (QR code): small enough for a QR code a phone reads
    /// from a screen, and what Google Authenticator itself puts in one.
    public static let accountsPerCode = 10

    /// The URIs, in batch order; empty when no account could be carried.
    public let uris: [String]
    /// The random id every URI of this export carries.
    public let batchID: Int32
    /// The accounts left out, at ``SkippedEntry/Position/entry(_:)`` (their place in the accounts
    /// given, counted from 1), with ``SkipReason/steam`` or ``SkipReason/notExportable(_:)``.
    public let skipped: [SkippedEntry]

    /// Writes accounts as migration URIs under a new random batch id.
    /// - Parameter accounts: the accounts, in the order the URIs should carry them.
    /// - Throws: `OTPError.cryptoFailure` when OpenSSL's random generator cannot draw the
    ///   batch id.
    public init(accounts: [OTPAuthURI]) throws(OTPError) {
        var batchID: Int32 = 0
        guard withUnsafeMutableBytes(of: &batchID, { SecureRandom.fill($0) }) else {
            throw .cryptoFailure("RAND_bytes could not produce a batch id")
        }
        self.init(accounts: accounts, batchID: batchID)
    }

    /// Writes accounts under a given batch id, so tests can check the exact output.
    init(accounts: [OTPAuthURI], batchID: Int32) {
        var carried: [MigrationAccountMapping.Parameters] = []
        var skipped: [SkippedEntry] = []
        for (index, account) in accounts.enumerated() {
            switch MigrationAccountMapping.parameters(for: account) {
            case .parameters(let parameters): carried.append(parameters)
            case .skipped(let reason):
                let label = account.issuer.map { "\($0):\(account.accountName)" } ?? account.accountName
                skipped.append(SkippedEntry(position: .entry(index + 1), label: label, reason: reason))
            }
        }
        let chunks = stride(from: 0, to: carried.count, by: Self.accountsPerCode).map {
            carried[$0..<min($0 + Self.accountsPerCode, carried.count)]
        }
        self.uris = chunks.enumerated().map { index, chunk in
            var payload = MigrationURICoding.Payload()
            payload.otpParameters = Array(chunk)
            payload.version = 1
            payload.batchSize = Int32(chunks.count)
            payload.batchIndex = Int32(index)
            payload.batchID = batchID
            return MigrationURICoding.uri(for: payload)
        }
        self.batchID = batchID
        self.skipped = skipped
    }
}
