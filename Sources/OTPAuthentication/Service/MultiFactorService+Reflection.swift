extension MultiFactorService: CustomReflectable {
    /// No children: reflection (`dump`, a test framework describing a failed expectation) never
    /// walks into the store, its keys, or the HTTP clients of identity providers, whose event loops
    /// other threads change while it reads.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
