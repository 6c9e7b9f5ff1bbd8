internal import CQRencode

/// A QR code symbol: a square matrix of dark and light modules, encoded by libqrencode.
///
/// The text is encoded in 8-bit byte mode (its UTF-8 bytes, exactly), at the smallest version
/// that holds it. The matrix excludes the quiet zone; renderers add it. Reading a module outside
/// the matrix gives `false` (light), which is what the quiet zone is. Encoding from several threads
/// at once is safe: libqrencode guards its shared tables with a mutex.
public struct QRCode: Hashable, Sendable {
    /// How much of the symbol may be damaged and still decode; higher levels make larger symbols.
    public enum ErrorCorrection: CaseIterable, Hashable, Sendable, CustomStringConvertible {
        /// About 7 % of codewords can be restored.
        case low
        /// About 15 % of codewords can be restored: the usual choice for screens.
        case medium
        /// About 25 % of codewords can be restored.
        case quartile
        /// About 30 % of codewords can be restored.
        case high

        /// The most bytes a version 40 symbol holds in byte mode at this level.
        public var maximumByteCount: Int {
            switch self {
            case .low: 2953
            case .medium: 2331
            case .quartile: 1663
            case .high: 1273
            }
        }

        /// The level's letter: L, M, Q or H.
        public var description: String {
            switch self {
            case .low: "L"
            case .medium: "M"
            case .quartile: "Q"
            case .high: "H"
            }
        }

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// The number of modules on each side (21 for version 1, up to 177 for version 40).
    public let size: Int
    /// The symbol version, 1 to 40.
    public let version: Int
    /// The error correction level the symbol was encoded at.
    public let errorCorrection: ErrorCorrection
    /// Row-major, one byte per module: 1 dark, 0 light.
    private let modules: [UInt8]

    /// The modules a renderer adds around the symbol by default, as ISO/IEC 18004 requires.
    public static let quietZone = 4

    /// Encodes `text` (its UTF-8 bytes, in byte mode) at the smallest version that holds it.
    /// - Throws: ``QRCodeError/emptyInput``, ``QRCodeError/inputTooLong(byteCount:maximum:errorCorrection:)``
    ///   or ``QRCodeError/encodingFailed(errno:)``.
    public init(encoding text: String, errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        try self.init(encoding: Array(text.utf8), errorCorrection: errorCorrection)
    }

    /// Encodes arbitrary bytes in byte mode at the smallest version that holds them.
    public init(encoding bytes: [UInt8], errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        guard !bytes.isEmpty else { throw .emptyInput }
        guard bytes.count <= errorCorrection.maximumByteCount else {
            throw .inputTooLong(byteCount: bytes.count, maximum: errorCorrection.maximumByteCount, errorCorrection: errorCorrection)
        }
        CQRencode_clear_errno()
        let symbol = bytes.withUnsafeBufferPointer { buffer in
            QRcode_encodeData(Int32(buffer.count), buffer.baseAddress, 0, errorCorrection.level)
        }
        guard let symbol else {
            let code = CQRencode_errno()
            if code == ERANGE {
                throw .inputTooLong(byteCount: bytes.count, maximum: errorCorrection.maximumByteCount, errorCorrection: errorCorrection)
            }
            throw .encodingFailed(errno: code)
        }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
        // libqrencode's low bit is "dark"; the other bits describe module roles renderers ignore.
        modules = data.map { $0 & 1 }
        size = width
        version = Int(symbol.pointee.version)
        self.errorCorrection = errorCorrection
    }

    /// Whether the module at `row`, `column` (0-based, from the top left) is dark. Outside the
    /// matrix, as in the quiet zone, every module is light.
    public subscript(row: Int, column: Int) -> Bool {
        guard row >= 0, row < size, column >= 0, column < size else { return false }
        return modules[row * size + column] != 0
    }

    /// The matrix as rows of modules, `true` for dark.
    public var rows: [[Bool]] {
        (0..<size).map { row in (0..<size).map { self[row, $0] } }
    }
}
