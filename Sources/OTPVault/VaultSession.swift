internal import CKeyutils
internal import Glibc
internal import OTPCore

/// An unlocked vault's key, kept by the Linux kernel for the rest of a login session.
///
/// `totp unlock` stores the vault's master key, with a snapshot of its entries, as a
/// `user` key in the session keyring, readable only by processes that possess that keyring (the
/// login session's processes), with a timeout after which the kernel destroys it; `totp lock`
/// destroys it at once. Chosen over an agent process: the kernel enforces the timeout and the
/// permissions, keeps the key out of swap and core dumps, and there is no daemon to start, find,
/// authenticate or stop. Reading it back costs two system calls.
public struct VaultSession: Sendable {
    /// How long an unlock lasts unless the command says otherwise.
    public static let defaultTimeout = 15 * 60
    /// The kernel refuses `user` key payloads larger than this.
    static let maximumPayloadByteCount = 32_767

    /// The key's description: one session per vault file.
    let description: String

    /// The session of the vault at `vaultPath`, named by its absolute path so that every spelling
    /// of the path finds the same session.
    public init(vaultPath: String) {
        description = "otpkit:vault:" + Self.absolutePath(vaultPath)
    }

    /// Stores `payload` (the master key and snapshot) for `timeout` seconds, replacing what an
    /// earlier unlock stored.
    func store(_ payload: SecureBytes, timeout: Int) throws(VaultError) {
        guard payload.count <= Self.maximumPayloadByteCount else {
            throw .sessionFailure("the vault is too large to keep unlocked in the kernel keyring")
        }
        // Asked for without creating: a process outside any login session (a cron job, a
        // container, a test runner) then gets the user's session keyring, which the next command
        // finds too, rather than a new keyring that would end with this process.
        let keyring = keyctl_get_keyring_ID(CKeyutils_session_keyring(), 0)
        guard keyring >= 0 else { throw .sessionFailure("there is no kernel session keyring: \(POSIXFile.Failure(code: errno))") }
        let id = payload.withUnsafeBytes { bytes in
            add_key("user", description, bytes.baseAddress, bytes.count, keyring)
        }
        guard id >= 0 else { throw .sessionFailure("the kernel keyring refused the key: \(POSIXFile.Failure(code: errno))") }
        guard keyctl_setperm(id, CKeyutils_possessor_permissions()) == 0,
            keyctl_set_timeout(id, UInt32(clamping: max(timeout, 1))) == 0
        else {
            let failure = POSIXFile.Failure(code: errno)
            _ = keyctl_invalidate(id)
            throw .sessionFailure("the kernel keyring could not protect the key: \(failure)")
        }
    }

    /// What the session holds, or `nil` when there is none (never unlocked, locked, timed out).
    func load() -> SecureBytes? {
        let id = keyctl_search(CKeyutils_session_keyring(), "user", description, 0)
        guard id > 0 else { return nil }
        // Read into wiped storage; the size is asked first so the payload is copied only once.
        let size = keyctl_read(key_serial_t(id), nil, 0)
        guard size > 0, size <= Self.maximumPayloadByteCount else { return nil }
        var complete = false
        let payload = SecureBytes(count: Int(size)) { buffer in
            let read = keyctl_read(key_serial_t(id), buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
            complete = read == size
            return complete ? Int(read) : 0
        }
        return complete ? payload : nil
    }

    /// Replaces the payload of a live session, keeping its timeout; nothing when it has ended
    /// (a new key here would outlive the timeout the user chose).
    func update(_ payload: SecureBytes) {
        guard payload.count <= Self.maximumPayloadByteCount else { return }
        let id = keyctl_search(CKeyutils_session_keyring(), "user", description, 0)
        guard id > 0 else { return }
        _ = payload.withUnsafeBytes { bytes in keyctl_update(key_serial_t(id), bytes.baseAddress, bytes.count) }
    }

    /// Destroys the session: whether there was one.
    @discardableResult
    public func end() -> Bool {
        let id = keyctl_search(CKeyutils_session_keyring(), "user", description, 0)
        guard id > 0 else { return false }
        return keyctl_invalidate(key_serial_t(id)) == 0 || keyctl_unlink(key_serial_t(id), CKeyutils_session_keyring()) == 0
    }

    /// `path` made absolute and free of `.`/`..` and symbolic links where it exists.
    static func absolutePath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard !path.hasPrefix("/") else { return path }
        guard let directory = getcwd(nil, 0) else { return path }
        defer { free(directory) }
        return String(cString: directory) + "/" + path
    }
}
