extension SQLiteAuthStore: CustomReflectable {
    /// Only the file's path: reflection (`dump`, a test framework describing a failed expectation)
    /// never walks into the sealer's keys or the connections, whose threads change them meanwhile.
    public var customMirror: Mirror { Mirror(self, children: ["path": path]) }
}
