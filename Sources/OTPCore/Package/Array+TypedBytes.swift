// Array's withUnsafeBytes and withUnsafeMutableBytes rethrow untyped errors, which a typed-throws
// caller cannot propagate; its buffer-pointer methods keep the closure's error type.
extension Array where Element == UInt8 {
    /// `withUnsafeBytes` that throws the closure's own error type.
    package func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in try body(UnsafeRawBufferPointer(buffer)) }
    }

    /// `withUnsafeMutableBytes` that throws the closure's own error type.
    package mutating func withMutableBytes<Result, Failure: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withUnsafeMutableBufferPointer { (buffer) throws(Failure) -> Result in try body(UnsafeMutableRawBufferPointer(buffer)) }
    }
}
