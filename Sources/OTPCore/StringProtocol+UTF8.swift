extension StringProtocol {
    /// Runs `body` on the text's UTF-8 bytes: in place when they are contiguous (a `String`'s or a
    /// `Substring`'s), through a native copy otherwise.
    ///
    /// Inlinable so that it specializes at the caller down to the contiguous bytes. The standard
    /// library's accessors rethrow untyped errors, so `body`'s typed error crosses them in a
    /// `Result`.
    @inlinable
    func withUTF8Bytes<Value>(_ body: (UnsafeBufferPointer<UInt8>) throws(OTPError) -> Value) throws(OTPError) -> Value {
        func attempt(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Value, OTPError> {
            Result { () throws(OTPError) in try body(bytes) }
        }
        if let fast = utf8.withContiguousStorageIfAvailable(attempt) {
            return try fast.get()
        }
        var string = String(self)
        return try string.withUTF8(attempt).get()
    }
}
