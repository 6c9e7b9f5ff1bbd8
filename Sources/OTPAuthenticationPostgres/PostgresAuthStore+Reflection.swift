extension PostgresAuthStore: CustomReflectable {
    /// Only the server: reflection (`dump`, a test framework describing a failed expectation)
    /// never walks into the sealer's keys or the connection pool, whose event loops other threads
    /// change while it reads.
    public var customMirror: Mirror { Mirror(self, children: ["server": server]) }
}
