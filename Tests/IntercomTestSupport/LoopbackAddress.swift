import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 address and port as the socket calls take them: the tests' one way to bind, connect or
/// send to 127.0.0.1 (or another loopback address), and to read back the port a socket got.
package enum LoopbackAddress {
    /// Runs `body` with `host`:`port` as a `sockaddr` and its length (for bind, connect, sendto).
    package static func with<T>(_ host: String = "127.0.0.1", port: UInt16,
                                _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// The port `fd` is bound to; nil when `getsockname` fails.
    package static func boundPort(_ fd: Int32) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return named == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }
}
