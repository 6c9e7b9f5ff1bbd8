internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPSealing

internal import Glibc

extension EnrollmentTool {
    /// `totp keygen`: the one way OTPKit makes a sealing key, and only when asked.
    struct Keygen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new sealing key (64 hex characters, mode 0600) to a file; never overwrites one.",
            discussion: "Keep the file: without it, the secrets sealed under it cannot be opened."
        )

        @Argument(help: ArgumentHelp("Where to write the key.", valueName: "file"))
        var file: String

        @Flag(help: "Keep an existing file and succeed (for scripts that run more than once).")
        var ifMissing = false

        func run() async throws {
            if ifMissing, access(file, F_OK) == 0 {
                let key: SealingKey
                do { key = try SealingKey(contentsOfFile: file) } catch { throw CommandFailure(error) }
                StandardStreams.writeError("Keeping the existing sealing key \(file) (key id \(key.id)).\n")
                return
            }
            do {
                let key = try SealingKey.generate(writingTo: file)
                StandardStreams.writeError(
                    "Wrote a new sealing key to \(file) (key id \(key.id)). Keep it: without it the sealed secrets cannot be opened.\n")
            } catch {
                throw CommandFailure.cannotCreate(error.description)
            }
        }
    }
}
