internal import Glibc

/// The file descriptors `otpkit-server` may have open, made room for `--max-connections` at start
/// rather than found short when the connections come: a server out of descriptors refuses its
/// database and key files as well as clients.
enum FileDescriptorLimit {
    /// Descriptors beside the connections: the database's, the key files', the listener, mail and
    /// SMS programs, the log.
    static let reserved = 128

    /// Raises this process's soft limit to fit `connections` beside ``reserved`` where the hard
    /// limit allows it.
    ///
    /// - Throws: ``ServerFailure`` naming both numbers when even the hard limit is too low.
    static func ensureRoom(forConnections connections: Int) throws(ServerFailure) {
        let needed = rlim_t(connections + reserved)
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        guard limit.rlim_cur < needed else { return }
        // RLIM_INFINITY is the all-ones value, so the smaller of the two is right either way.
        let raised = min(needed, limit.rlim_max)
        var wanted = limit
        wanted.rlim_cur = raised
        if raised > limit.rlim_cur, setrlimit(Int32(RLIMIT_NOFILE.rawValue), &wanted) == 0 { limit.rlim_cur = raised }
        guard limit.rlim_cur >= needed else {
            throw ServerFailure(
                "--max-connections \(connections) needs \(needed) file descriptors and this process may have \(limit.rlim_cur): raise its limit (ulimit -n, LimitNOFILE=) or give fewer connections"
            )
        }
    }
}
