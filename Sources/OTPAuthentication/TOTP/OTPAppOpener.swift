internal import Foundation

/// Hands an otpauth:// URL to whatever opens it on this platform; ``TOTPSecret/openInOTPApp(withQRCodeURL:)``
/// goes through it.
public protocol OTPAppOpener: Sendable {
    /// Opens `url`; returns whether something handled it.
    func open(_ url: String) -> Bool
}

/// Opens URLs with `xdg-open`, the freedesktop.org way to reach the desktop's default handler
/// (an authenticator registered for the `otpauth` scheme).
public struct XDGOpenOpener: OTPAppOpener {
    /// The program run with the URL as its only argument.
    public var command: String

    /// An opener that runs `command` (found on `PATH`).
    public init(command: String = "xdg-open") {
        self.command = command
    }

    public func open(_ url: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command, url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }
}
