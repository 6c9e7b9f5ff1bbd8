internal import Glibc
internal import OTPCore

/// The vault's file on disk, and the only code that changes it.
///
/// Every change happens under an exclusive lock on a sidecar file (`VAULT.lock`: the vault itself
/// is replaced by a rename, so a lock on it would be a lock on an old inode), re-reads the vault
/// under that lock, and replaces it atomically: the new bytes go to a temporary file in the same
/// directory, created with mode 0600 and flushed with `fsync`, the previous version is kept as
/// `VAULT.bak`, the temporary file is renamed over the vault and the directory is flushed. A
/// process killed at any instant leaves the old vault or the new one, never neither; a failed
/// operation leaves the vault as it was.
public struct VaultFile: Sendable {
    /// The largest vault read, checked before reading: far beyond any real vault, small enough
    /// that a wrong path (a disk image, say) is refused rather than read into memory.
    static let maximumByteCount = 64 << 20

    /// The vault's path.
    public let path: String

    /// A vault at `path`; nothing is read or created yet.
    public init(path: String) {
        self.path = path
    }

    /// The sidecar lock file.
    public var lockPath: String { path + ".lock" }
    /// The previous version, kept by every save.
    public var backupPath: String { path + ".bak" }

    /// Whether a vault file exists at ``path``.
    public var exists: Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// The vault's bytes, or `nil` when there is no file at ``path``.
    public func read() throws(VaultError) -> [UInt8]? {
        try readWithStamp()?.bytes
    }

    /// The vault's bytes and the stamp of the file they were read from (taken from the open
    /// descriptor, so a rename meanwhile cannot pair one file's bytes with another's stamp).
    func readWithStamp() throws(VaultError) -> (bytes: [UInt8], stamp: VaultFileStamp)? {
        let file: POSIXFile
        do {
            file = try POSIXFile.openForReading(path)
        } catch {
            if error.code == ENOENT { return nil }
            throw .fileFailure("could not open the vault \(path): \(error)")
        }
        defer { try? file.close() }
        var status = stat()
        guard fstat(file.descriptor, &status) == 0 else {
            throw .fileFailure("could not read the vault \(path): \(POSIXFile.Failure(code: errno))")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .fileFailure("the vault \(path) is not a regular file") }
        guard status.st_size <= Self.maximumByteCount else {
            throw .fileFailure("the vault \(path) is larger than \(Self.maximumByteCount >> 20) MiB: it is not a vault")
        }
        // One byte more than the size, so that a file that grew meanwhile shows as too long.
        let capacity = Int(status.st_size) + 1
        var bytes = [UInt8](repeating: 0, count: capacity)
        let count: Int
        do {
            count = try bytes.withMutableBytes { buffer throws(POSIXFile.Failure) in try file.readFully(into: buffer) }
        } catch {
            throw .fileFailure("could not read the vault \(path): \(error)")
        }
        guard count < capacity else { throw .fileFailure("the vault \(path) changed while it was read: try again") }
        bytes.removeSubrange(count...)
        return (bytes, VaultFileStamp(status))
    }

    /// Runs `body` holding the vault's exclusive lock, waiting for it at most `timeout`.
    ///
    /// - Throws: ``VaultError/busy(path:)`` when another process holds the lock longer, or what
    ///   `body` throws.
    public func withExclusiveLock<Result>(
        timeout: Duration = .seconds(2),
        _ body: () throws(VaultError) -> Result
    ) throws(VaultError) -> Result {
        try createDirectoryIfMissing()
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .fileFailure("could not open the lock file \(lockPath): \(POSIXFile.Failure(code: errno))")
        }
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            // A file system without locks (some network mounts): go on unlocked rather than refuse every change.
            if code == ENOSYS || code == EOPNOTSUPP { break }
            guard code == EWOULDBLOCK || code == EINTR else {
                throw .fileFailure("could not lock \(lockPath): \(POSIXFile.Failure(code: code))")
            }
            guard clock.now < deadline else { throw .busy(path: path) }
            usleep(5_000)
        }
        // Closing the descriptor releases the lock.
        return try body()
    }

    /// Replaces the vault with `bytes` and keeps `previous` (the vault as read under the same
    /// lock) as the backup. Call it inside ``withExclusiveLock(timeout:_:)``.
    func replace(with bytes: [UInt8], previous: [UInt8]?) throws(VaultError) {
        let directory = directoryPath
        let temporary = try writeTemporaryFile(bytes, in: directory)
        do throws(VaultError) {
            if let previous {
                let backup = try writeTemporaryFile(previous, in: directory)
                guard rename(backup, backupPath) == 0 else {
                    let failure = POSIXFile.Failure(code: errno)
                    unlink(backup)
                    throw .fileFailure("could not keep the previous vault as \(backupPath): \(failure)")
                }
            }
            guard rename(temporary, path) == 0 else {
                throw .fileFailure("could not replace the vault \(path): \(POSIXFile.Failure(code: errno))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        try synchronizeDirectory(directory)
    }

    /// The folder holding the vault (`.` for a bare file name).
    var directoryPath: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates the vault's folder and any missing parent with mode 0700.
    func createDirectoryIfMissing() throws(VaultError) {
        var prefix = directoryPath.hasPrefix("/") ? "/" : ""
        for component in directoryPath.split(separator: "/") where component != "." {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .fileFailure("could not create the folder \(prefix): \(POSIXFile.Failure(code: errno))")
            }
        }
    }

    /// Writes `bytes` to a new file of mode 0600 beside the vault and flushes it: its path.
    private func writeTemporaryFile(_ bytes: [UInt8], in directory: String) throws(VaultError) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? "vault"
        var template: [CChar] = []
        template.append(contentsOf: "\(directory)/.\(name).tmp.XXXXXX".utf8.map { CChar(bitPattern: $0) })
        template.append(0)
        // mkstemp creates the file with mode 0600, whatever the umask.
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in mkstemp(buffer.baseAddress!) }
        guard descriptor >= 0 else {
            throw .fileFailure("could not create a file in \(directory): \(POSIXFile.Failure(code: errno))")
        }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let file = POSIXFile(descriptor: descriptor)
        var failure: POSIXFile.Failure?
        do throws(POSIXFile.Failure) {
            try bytes.withBytes { buffer throws(POSIXFile.Failure) in try file.writeAll(buffer) }
            try file.synchronize()
        } catch {
            failure = error
        }
        do throws(POSIXFile.Failure) {
            try file.close()
        } catch {
            failure = failure ?? error
        }
        if let failure {
            unlink(temporary)
            throw .fileFailure("could not write \(temporary): \(failure)")
        }
        return temporary
    }

    /// Flushes the directory entry of the rename, so the new vault survives a power loss.
    private func synchronizeDirectory(_ directory: String) throws(VaultError) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw .fileFailure("could not flush the folder \(directory): \(POSIXFile.Failure(code: errno))")
        }
    }
}
