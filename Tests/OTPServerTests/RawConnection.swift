import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A bare TCP connection to a loopback port, for what an HTTP client library will not do: send
/// half a request and stop. Reads without blocking a thread, sleeping between tries.
final class RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0, "socket failed: errno \(errno)")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let failure = errno
            Glibc.close(descriptor)
            Issue.record("connect to port \(port) failed: errno \(failure)")
            throw CancellationError()
        }
    }

    deinit { Glibc.close(descriptor) }

    /// Sends all of `text`.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            try #require(count > 0, "send failed: errno \(errno)")
            sent += count
        }
    }

    /// Sends one space every `interval` until the peer closes the connection (a send refused, or
    /// end of stream read) or `timeout` passes: the spaces sent, and whether the connection ended.
    func trickle(every interval: Duration, timeout: Duration) async throws -> (sent: Int, closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var sent = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            let space: [UInt8] = [0x20]
            guard space.withUnsafeBytes({ Glibc.send(descriptor, $0.baseAddress, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }) == 1 else {
                return (sent, true)
            }
            sent += 1
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return (sent, true) }
            try await Task.sleep(for: interval)
        }
        return (sent, false)
    }

    /// Reads until the peer closes the connection (or resets it), or `timeout` passes: what
    /// arrived, and whether the connection ended.
    func readUntilClosed(timeout: Duration) async throws -> (bytes: [UInt8], closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return (received, true)
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        return (received, false)
    }
}
