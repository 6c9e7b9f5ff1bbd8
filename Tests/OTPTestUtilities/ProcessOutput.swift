/// What a finished child process left: how it ended and everything it wrote.
public struct ProcessOutput: Sendable, CustomStringConvertible {
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    public let termination: Termination
    public let standardOutput: [UInt8]
    public let standardError: [UInt8]

    public init(termination: Termination, standardOutput: [UInt8], standardError: [UInt8]) {
        self.termination = termination
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The exit status, or 128 plus the signal number as shells report a killed child, so that a
    /// test expecting an exit status never mistakes a crash for it.
    public var status: Int32 {
        switch termination {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }

    public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
    public var stderr: String { String(decoding: standardError, as: UTF8.self) }

    public var description: String {
        "\(termination), stdout \(stdout.debugDescription), stderr \(stderr.debugDescription)"
    }
}
