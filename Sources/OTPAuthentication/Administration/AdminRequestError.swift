/// An administrator's input refused before anything is written (custom claims, an import's hash
/// parameters and user records), under the error code Firebase gives it: `otpkit-server` answers
/// with the code, the CLI prints the message.
package struct AdminRequestError: Error, Sendable, Hashable {
    /// Firebase's name of the error, `INVALID_ARGUMENT` and the like.
    package let code: String
    /// What is wrong and how to fix it, for a person; never a secret.
    package let message: String

    package init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Firebase's code for a malformed field.
    package static func invalidArgument(_ message: String) -> Self { Self("INVALID_ARGUMENT", message) }
}
