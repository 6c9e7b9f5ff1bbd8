package import NIOPosix

/// The threads outbound exchanges block on while libcurl works.
///
/// Not NIO's shared blocking pool: it has a thread a core, and a gateway that hangs until the
/// timeout would then hold every other send queued behind it. Sixteen threads let
/// that many exchanges wait at once; a gateway answering in a tenth of a second still serves over a
/// hundred sends a second.
package enum OutboundThreads {
    package static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 16)
        pool.start()
        return pool
    }()
}
