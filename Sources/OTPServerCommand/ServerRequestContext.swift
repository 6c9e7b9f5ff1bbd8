internal import Hummingbird
internal import NIOCore

/// Hummingbird's basic context plus the client's address, which the per-address limits (the
/// routes' and the password sign-in's own) count under.
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
