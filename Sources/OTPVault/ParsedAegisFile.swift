/// An Aegis vault file as ``AegisEnvelope/parse(_:)`` reads it: plain or encrypted.
public enum ParsedAegisFile: Sendable {
    /// A plain (unencrypted) export: the JSON bytes of its `db` object.
    case plain(content: [UInt8])
    /// An encrypted vault, opened with ``AegisEnvelope/open(with:)``.
    case encrypted(AegisEnvelope)
}
