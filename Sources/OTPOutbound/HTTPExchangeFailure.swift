/// Why an ``HTTPExchange`` has no answer, or why its answer's body broke off. Details are
/// libcurl's descriptions, which name hosts, ports and system errors, never a header or a body.
package enum HTTPExchangeFailure: Error, Sendable, Equatable {
    /// The exchange's timeout passed.
    case timedOut
    /// The task was cancelled, or the threads exchanges run on were shut down.
    case cancelled
    /// No connection: the name did not resolve, the port refused, TLS failed.
    case noConnection(String)
    /// The server's answer was cut off or unreadable (a status below 100, a malformed head).
    case brokenOff(String)

    init(curlCode: Int32, detail: String) {
        switch curlCode {
        case 28: self = .timedOut  // CURLE_OPERATION_TIMEDOUT
        case 42: self = .cancelled  // CURLE_ABORTED_BY_CALLBACK
        // CURLE_COULDNT_RESOLVE_PROXY, _HOST, _CONNECT; TLS: CURLE_SSL_CONNECT_ERROR, _CERTPROBLEM,
        // _CIPHER, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, _ISSUER_ERROR,
        // _PINNEDPUBKEYNOTMATCH, _INVALIDCERTSTATUS.
        case 5, 6, 7, 35, 58, 59, 60, 77, 83, 90, 91: self = .noConnection(detail)
        default: self = .brokenOff(detail)
        }
    }
}
