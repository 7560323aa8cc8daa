import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// Tries to bind a listen address before liblinphone does, because liblinphone only logs
/// a failed bind and carries on with the transport silently off.
enum SocketProbe {
    enum Outcome: Equatable { case ok, inUse, failed(String) }

    static func canBind(_ address: ListenAddress) -> Outcome {
        if address.port == 0 { return .ok }
        let type = address.transport == .udp ? Int32(SOCK_DGRAM.rawValue) : Int32(SOCK_STREAM.rawValue)
        guard let target = SocketAddress(host: address.host, port: address.port) else {
            return .failed("'\(address.host)' is not an IP address")
        }
        let fd = socket(target.family, type, 0)
        guard fd >= 0 else { return .failed(String(cString: strerror(errno))) }
        defer { close(fd) }
        if type == Int32(SOCK_STREAM.rawValue) {
            // A listener in TIME_WAIT is no conflict; liblinphone sets the same option.
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let result = target.bind(fd)
        if result == 0 { return .ok }
        if errno == EADDRINUSE { return .inUse }
        return .failed(String(cString: strerror(errno)))
    }
}
