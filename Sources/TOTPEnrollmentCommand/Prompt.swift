internal import OTPCommandSupport

/// Questions at the terminal. Prompts go to standard error so standard output holds only results.
enum Prompt {
    /// Asks for a one-time code; `nil` at the end of input.
    static func askForCode(_ prompt: String) -> String? {
        StandardStreams.writeError(prompt)
        guard let line = readLine() else {
            StandardStreams.writeError("\n")
            return nil
        }
        return line.filter { !$0.isWhitespace }
    }
}
