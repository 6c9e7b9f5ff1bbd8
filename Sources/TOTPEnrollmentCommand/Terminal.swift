internal import Glibc

/// Prompts and answers: prompts go to standard error so standard output holds only results.
enum Terminal {
    static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }

    static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Asks for a one-time code; `nil` at the end of input.
    static func askForCode(_ prompt: String) -> String? {
        writeError(prompt)
        guard let line = readLine() else {
            writeError("\n")
            return nil
        }
        return line.filter { !$0.isWhitespace }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
