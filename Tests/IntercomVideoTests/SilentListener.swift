import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes the handshake from the
/// backlog) and never says a word: a panel that hangs during RTSP setup.
final class SilentListener {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 8) == 0 else {
            Glibc.close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() { Glibc.close(descriptor) }
}
