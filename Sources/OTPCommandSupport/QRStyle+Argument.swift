internal import ArgumentParser

// Here rather than in each executable: both parse the same words, and both already link
// ArgumentParser, so this module depending on it costs `totp` nothing.
extension QRStyle: ExpressibleByArgument {
    /// Reads a style from a command-line word, as ``init(word:)`` does.
    package init?(argument: String) {
        self.init(word: argument)
    }
}
