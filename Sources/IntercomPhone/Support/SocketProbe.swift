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
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, address.host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(address.port).bigEndian)
        } else if inet_pton(AF_INET6, address.host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(address.port).bigEndian)
        } else {
            return .failed("'\(address.host)' is not an IP address")
        }
        let fd = socket(family, type, 0)
        guard fd >= 0 else { return .failed(String(cString: strerror(errno))) }
        defer { close(fd) }
        if type == Int32(SOCK_STREAM.rawValue) {
            // A listener in TIME_WAIT is no conflict; liblinphone sets the same option.
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let result: Int32 = family == AF_INET
            ? withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            : withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        if result == 0 { return .ok }
        if errno == EADDRINUSE { return .inUse }
        return .failed(String(cString: strerror(errno)))
    }
}
