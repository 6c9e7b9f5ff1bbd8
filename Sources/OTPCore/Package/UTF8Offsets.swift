extension UnsafeBufferPointer<UInt8> {
    /// The index, counted in Unicode scalars, of the scalar that contains byte `utf8Offset` of this
    /// valid UTF-8 text: the offsets error messages report, since people count characters, not bytes.
    package func scalarIndex(containingByte utf8Offset: Int) -> Int {
        var leadBytes = 0
        for index in 0...utf8Offset where self[index] & 0xC0 != 0x80 {
            leadBytes += 1
        }
        return leadBytes - 1
    }
}
