extension Substring {
    /// The text without leading and trailing whitespace.
    package var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
