internal import Glibc
internal import OTPCore
package import OTPVault

/// Reads a vault passphrase from a file descriptor or the terminal, never echoing it.
package enum PassphraseReader {
    /// The longest passphrase read: far beyond any typed one, and a bound on what a wrong
    /// descriptor (a big file) can make us read.
    static let maximumByteCount = 4096

    /// The first line read from `descriptor` (without its newline). `noun` names the secret in
    /// errors (an account's `password`, say).
    package static func read(descriptor: Int32, noun: String = "passphrase") throws(VaultError) -> VaultPassphrase {
        let source = descriptor == 0 ? "standard input" : "descriptor \(descriptor)"
        let passphrase = try readLine(from: POSIXFile(descriptor: descriptor), source: source, noun: noun)
        guard !passphrase.isEmpty else { throw .passphraseUnavailable("\(source) gave an empty \(noun)") }
        return passphrase
    }

    /// The first line of the file at `path` (an export's `--password-file`).
    package static func read(path: String) throws(VaultError) -> VaultPassphrase {
        let file: POSIXFile
        do {
            file = try POSIXFile.openForReading(path)
        } catch {
            throw .passphraseUnavailable("cannot read the password file \(path): \(error)")
        }
        defer { try? file.close() }
        let passphrase = try readLine(from: file, source: path, noun: "password")
        guard !passphrase.isEmpty else { throw .passphraseUnavailable("the password file \(path) is empty") }
        return passphrase
    }

    /// Asks for the vault's passphrase on the terminal; twice when `confirming` (a new vault).
    package static func prompt(confirming: Bool) throws(VaultError) -> VaultPassphrase {
        try prompt(confirming ? "New vault passphrase: " : "Vault passphrase: ", repeat: confirming ? "Repeat the passphrase: " : nil)
    }

    /// Asks `question` on the terminal (`/dev/tty`, so standard input and output stay free for
    /// data) with echo off; with `repeat`, asks again and insists the answers match. `noun` names
    /// the secret in errors.
    package static func prompt(_ question: String, repeat confirmation: String?, noun: String = "passphrase") throws(VaultError)
        -> VaultPassphrase
    {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw .passphraseUnavailable(
                question.hasPrefix("Password")
                    ? "no terminal to ask for the password: use --password-file"
                    : "no terminal to ask for the vault passphrase: use --key-file, --passphrase-fd or \(VaultOptions.passphraseVariable), or run totp unlock first"
            )
        }
        defer { close(descriptor) }
        let terminal = POSIXFile(descriptor: descriptor)
        let first = try ask(question, terminal: terminal, noun: noun)
        guard !first.isEmpty else { throw .passphraseUnavailable("the \(noun) is empty") }
        if let confirmation {
            let second = try ask(confirmation, terminal: terminal, noun: noun)
            let same = first.storage.withUnsafeBytes { a in second.storage.withUnsafeBytes { b in a.elementsEqual(b) } }
            guard same else { throw .passphraseUnavailable("the two \(noun)s differ") }
        }
        return first
    }

    private static func ask(_ question: String, terminal: POSIXFile, noun: String) throws(VaultError) -> VaultPassphrase {
        try? Array(question.utf8).withUnsafeBytes { try terminal.writeAll($0) }
        var saved = termios()
        let isTerminal = tcgetattr(terminal.descriptor, &saved) == 0
        if isTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            silent.c_lflag |= tcflag_t(ICANON)
            tcsetattr(terminal.descriptor, TCSAFLUSH, &silent)
        }
        defer {
            if isTerminal { tcsetattr(terminal.descriptor, TCSAFLUSH, &saved) }
            try? Array("\n".utf8).withUnsafeBytes { try terminal.writeAll($0) }
        }
        return try readLine(from: terminal, source: "the terminal", noun: noun)
    }

    /// Reads byte by byte up to a newline, so nothing after the line is consumed from a shared
    /// descriptor, into wiped storage.
    private static func readLine(from file: POSIXFile, source: String, noun: String) throws(VaultError) -> VaultPassphrase {
        var failure: POSIXFile.Failure?
        var tooLong = false
        let storage = SecureBytes(count: maximumByteCount) { buffer in
            var count = 0
            while true {
                guard count < buffer.count else {
                    tooLong = true
                    return 0
                }
                let read: Int
                do throws(POSIXFile.Failure) {
                    read = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count..<(count + 1)]))
                } catch {
                    failure = error
                    return 0
                }
                if read == 0 || buffer[count] == UInt8(ascii: "\n") { break }
                count += 1
            }
            if count > 0, buffer[count - 1] == UInt8(ascii: "\r") { count -= 1 }
            return count
        }
        if let failure { throw .passphraseUnavailable("could not read the \(noun) from \(source): \(failure)") }
        if tooLong { throw .passphraseUnavailable("the \(noun) from \(source) is longer than \(maximumByteCount) bytes") }
        return VaultPassphrase(storage: storage)
    }
}
