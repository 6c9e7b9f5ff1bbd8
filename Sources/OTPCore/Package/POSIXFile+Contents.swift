extension POSIXFile {
    /// Why ``contents(atMost:)`` or ``contents(ofFile:atMost:)`` read nothing.
    package enum ContentsFailure: Error, Equatable, Sendable {
        /// The file could not be opened or read.
        case unreadable(Failure)
        /// The file holds more than the bytes allowed (an endless stream, a device, a file that
        /// is not what it should be); nothing beyond the bound was read.
        case tooLarge(maximumByteCount: Int)
    }

    /// Everything left in the file, refusing it once it passes `maximumByteCount` bytes: read in
    /// chunks and checked as it goes, so that a huge file or an endless stream (`/dev/zero`, a
    /// pipe that never ends) is refused with a bounded amount read rather than read whole first.
    package func contents(atMost maximumByteCount: Int) throws(ContentsFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Failure) in try self.read(into: buffer) }
            }
            let count: Int
            switch read {
            case .success(let byteCount): count = byteCount
            case .failure(let failure): throw .unreadable(failure)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumByteCount else { throw .tooLarge(maximumByteCount: maximumByteCount) }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// The contents of the file at `path`, as ``contents(atMost:)`` reads them.
    package static func contents(ofFile path: String, atMost maximumByteCount: Int) throws(ContentsFailure) -> [UInt8] {
        let file: POSIXFile
        do {
            file = try openForReading(path)
        } catch {
            throw .unreadable(error)
        }
        defer { try? file.close() }
        return try file.contents(atMost: maximumByteCount)
    }
}
