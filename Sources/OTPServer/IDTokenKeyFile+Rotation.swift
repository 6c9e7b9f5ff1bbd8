internal import Foundation
internal import Glibc
internal import OTPCore
public import OTPSealing

extension IDTokenKeyFile {
    /// How long a rotation keeps a retired key, in seconds: an ID token's lifetime (one hour),
    /// plus five minutes for the servers sharing the file to notice the rotation (they re-read
    /// it every 30 seconds) and for their clocks to disagree.
    public static let defaultRetention: Int64 = 3600 + 300

    /// Replaces the signing key in the file at `path`: a new key signs from now on, the one that
    /// signed is retired at `now`, and keys retired `retention` seconds or more before `now` are
    /// dropped. Every kept key is sealed again under the sealer's current key.
    ///
    /// The file is locked for the rotation, and the new set is written beside it and renamed over
    /// it: a reader sees the old set or the new one, and two rotations at once each keep the
    /// other's key.
    ///
    /// The new key signs with `algorithm`, or with the algorithm of the key it replaces when
    /// `nil`; the keys it retires keep theirs and verify as before.
    ///
    /// - Returns: The new set; its `signing` key is the new one.
    /// - Throws: ``IDTokenKeyFileError`` saying what is wrong with the file and what to do; the
    ///   file is then left as it was.
    public static func rotate(
        path: String, sealer: SecretSealer, now: Int64, retention: Int64 = defaultRetention, algorithm: IDTokenSigningAlgorithm? = nil
    ) throws(IDTokenKeyFileError) -> IDTokenSigningKeySet {
        let lock = try lockExclusively(path)
        // Closing the descriptor releases the lock.
        defer { try? lock.close() }
        guard let (current, _) = try load(path: path, sealer: sealer) else { throw .missing(path: path) }
        let algorithm = algorithm ?? current.signing.algorithm
        var key = try IDTokenSigningKey.generate(algorithm: algorithm)
        while current.keys.contains(where: { $0.kid == key.kid }) { key = try IDTokenSigningKey.generate(algorithm: algorithm) }
        let rotated = current.rotated(to: key, now: now, retention: retention)
        var sealed: [SealedKey] = []
        for key in rotated.keys { sealed.append(try seal(key, sealer: sealer)) }
        try replace(try encode(sealed: sealed, path: path), at: path)
        return rotated
    }

    /// The file at `path`, open and locked (`flock`) against other rotations.
    ///
    /// A rotation renames a new file over the one it locked, so a lock taken on the old file
    /// after waiting guards nothing; then the new file is opened and locked instead.
    static func lockExclusively(_ path: String) throws(IDTokenKeyFileError) -> POSIXFile {
        while true {
            let file: POSIXFile
            do {
                file = try POSIXFile.openForReading(path)
            } catch {
                if error.code == ENOENT { throw .missing(path: path) }
                throw .unreadable(path: path, reason: error.description)
            }
            while flock(file.descriptor, LOCK_EX) != 0 {
                let code = errno
                if code == EINTR { continue }
                try? file.close()
                throw .unreadable(path: path, reason: "it could not be locked: " + String(cString: strerror(code)))
            }
            var locked = stat()
            var named = stat()
            if fstat(file.descriptor, &locked) == 0, stat(path, &named) == 0, locked.st_dev == named.st_dev,
                locked.st_ino == named.st_ino
            {
                return file
            }
            try? file.close()
        }
    }

    /// Writes `encoded` beside `path` and renames it over `path`, then flushes the directory so
    /// the rename survives a crash.
    static func replace(_ encoded: Data, at path: String) throws(IDTokenKeyFileError) {
        let temporary = try writeBeside(path, encoded)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .unwritable(path: path, reason: reason)
        }
        let directoryPath = (path as NSString).deletingLastPathComponent
        if let directory = try? POSIXFile.openForReading(directoryPath.isEmpty ? "." : directoryPath) {
            try? directory.synchronize()
            try? directory.close()
        }
    }
}
