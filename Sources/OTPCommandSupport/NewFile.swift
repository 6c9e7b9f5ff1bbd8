internal import Glibc
package import OTPCore

/// Writing a command's output to a file that must not exist yet, of mode 0600 (exports hold
/// secrets or password hashes), or to standard output.
package enum NewFile {
    /// Writes `bytes` to `path`, a new file of mode 0600 synchronized to disk, or to standard output
    /// when `path` is `nil`: the paths written. A file that cannot be written whole is removed, so
    /// no half-written export is left.
    /// - Throws: ``CommandFailure`` (exit status 73) naming the file and what to do.
    package static func write(_ bytes: [UInt8], to path: String?) throws(CommandFailure) -> [String] {
        guard let path else {
            StandardStreams.writeOutput(String(decoding: bytes, as: UTF8.self))
            return []
        }
        let file: POSIXFile
        do {
            file = try POSIXFile.createNew(path, mode: 0o600)
        } catch {
            throw error.isAlreadyExisting
                ? .cannotCreate("\(path) exists: remove it or choose another name")
                : .cannotCreate("cannot create \(path): \(error)")
        }
        do throws(POSIXFile.Failure) {
            try bytes.withBytes { buffer throws(POSIXFile.Failure) in try file.writeAll(buffer) }
            try file.synchronize()
            try file.close()
        } catch {
            try? file.close()
            unlink(path)
            throw .cannotCreate("cannot write \(path): \(error)")
        }
        return [path]
    }
}
