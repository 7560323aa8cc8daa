#if canImport(Glibc)
import Glibc
#endif

/// A host name's numeric addresses from the system's resolver (getaddrinfo), in its order of
/// preference, each once. It blocks for as long as the resolver takes (its own timeouts, several
/// seconds per dead server): a caller with a deadline runs it where it may be abandoned.
package enum NameLookup {
    /// Why a name has no addresses, in the resolver's words (`gai_strerror`).
    package struct Failure: Error, Sendable, Equatable {
        package let reason: String

        package init(reason: String) {
            self.reason = reason
        }
    }

    package static func addresses(of host: String, socketType: Int32) -> Result<[String], Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = socketType
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &list)
        guard code == 0 else { return .failure(Failure(reason: gai_strerror(code).map { String(cString: $0) } ?? "error \(code)")) }
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
        return found.isEmpty ? .failure(Failure(reason: "no IPv4 or IPv6 address")) : .success(found)
    }
}
