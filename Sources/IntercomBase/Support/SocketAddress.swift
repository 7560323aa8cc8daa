#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IP literal and a port as `bind(2)` takes them: the one place a listen address becomes a
/// `sockaddr_in` or `sockaddr_in6` (the phone's probe of its SIP ports, the panels' syslog socket).
public struct SocketAddress {
    private enum Family {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let address: Family

    /// Nil when `host` is neither an IPv4 nor an IPv6 literal (`inet_pton`'s reading).
    public init?(host: String, port: Int) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            address = .v4(v4)
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            address = .v6(v6)
        } else {
            return nil
        }
    }

    /// `AF_INET` or `AF_INET6`, for `socket(2)`.
    public var family: Int32 {
        switch address {
        case .v4: AF_INET
        case .v6: AF_INET6
        }
    }

    /// Binds `fd` here: `bind(2)`'s result (0, or -1 with `errno` set).
    public func bind(_ fd: Int32) -> Int32 {
        func bound<Address>(_ address: Address) -> Int32 {
            withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<Address>.size))
                #else
                Darwin.bind(fd, $0, socklen_t(MemoryLayout<Address>.size))
                #endif
            } }
        }
        switch address {
        case .v4(let address): return bound(address)
        case .v6(let address): return bound(address)
        }
    }
}
