#if canImport(Glibc)
import Glibc
#endif

/// A socket address as text, the way config files and logs write addresses. An IPv4 peer seen
/// on a dual-stack socket (`::ffff:192.168.1.50`) is written as the IPv4 address it is, so it
/// compares equal to `source = 192.168.1.50`.
package enum SocketAddressText {
    /// The numeric host, nil for anything but IPv4 and IPv6.
    package static func host(_ address: UnsafeRawBufferPointer) -> String? {
        let length = address.count
        guard length >= MemoryLayout<sa_family_t>.size else { return nil }
        let family = address.loadUnaligned(as: sa_family_t.self)
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(family) {
        case AF_INET:
            guard length >= MemoryLayout<sockaddr_in>.size else { return nil }
            var ipv4 = address.loadUnaligned(as: sockaddr_in.self).sin_addr
            guard inet_ntop(AF_INET, &ipv4, &text, socklen_t(text.count)) != nil else { return nil }
        case AF_INET6:
            guard length >= MemoryLayout<sockaddr_in6>.size else { return nil }
            var ipv6 = address.loadUnaligned(as: sockaddr_in6.self).sin6_addr
            let bytes = withUnsafeBytes(of: &ipv6) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            guard inet_ntop(AF_INET6, &ipv6, &text, socklen_t(text.count)) != nil else { return nil }
        default:
            return nil
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `host:port`, IPv6 bracketed, for the log.
    package static func hostAndPort(_ address: UnsafeRawBufferPointer) -> String? {
        guard let host = host(address) else { return nil }
        let family = Int32(address.loadUnaligned(as: sa_family_t.self))
        let networkPort = family == AF_INET
            ? address.loadUnaligned(as: sockaddr_in.self).sin_port
            : address.loadUnaligned(as: sockaddr_in6.self).sin6_port
        let port = UInt16(bigEndian: networkPort)
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
