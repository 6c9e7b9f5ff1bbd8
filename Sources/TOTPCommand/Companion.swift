internal import Glibc
internal import OTPCommandSupport

/// The executables `totp` hands commands over to, installed beside it (git-style): each keeps
/// libraries out of `totp`'s own start-up.
enum Companion {
    /// Replaces this process with `program ARGUMENTS…` from `totp`'s own directory; returns only
    /// on failure (exit status 69).
    static func execute(_ program: String, _ arguments: [String]) -> CommandFailure {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let directory: String
        if length > 0 {
            let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        } else {
            directory = "."
        }
        let path = directory + "/" + program
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        return .unavailable(
            "cannot run \(path): \(reason): build and install it beside totp (swift build -c release --product \(program))")
    }
}
