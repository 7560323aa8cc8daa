#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// Numeric addresses of a host name, for the panels and registrars whose calls are trusted by
/// the address they come from. Looked up when the config is read (start, SIGHUP), not per call:
/// a name that later resolves elsewhere takes a reload, which the docs say.
enum HostResolver {
    static func addresses(of host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var found: [String] = []
        var node = list
        while let current = node {
            if let address = current.pointee.ai_addr,
               let text = SocketAddressText.host(UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen))),
               !found.contains(text) {
                found.append(text)
            }
            node = current.pointee.ai_next
        }
        return found
    }
}
