import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket on 127.0.0.1 at a port the kernel picks (or `port`, e.g. one a server
/// that stopped just held): the test servers' one way to open one (the caller owns the descriptor
/// and closes it).
package enum LoopbackListener {
    package static func open(backlog: Int32, port: UInt16 = 0) throws -> (descriptor: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        if port != 0 {
            // The last owner's connections may linger in TIME_WAIT on it.
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        guard LoopbackAddress.with(port: port, { bind(fd, $0, $1) }) == 0, let bound = LoopbackAddress.boundPort(fd),
              listen(fd, backlog) == 0 else {
            close(fd)
            throw HarnessError("cannot listen on loopback: errno \(errno)")
        }
        return (fd, bound)
    }
}
