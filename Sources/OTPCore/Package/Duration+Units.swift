extension Duration {
    /// The duration in seconds, as messages and Unix-time arithmetic use it.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, as libcurl's and PostgreSQL's timeouts take it.
    package var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
