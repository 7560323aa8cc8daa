import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A UDP port on 127.0.0.1 that was free a moment ago.
///
/// The demo's client must be called at a port the simulated panel is told before the client
/// starts, so the port is chosen by binding port 0, reading what the kernel gave and closing.
/// Another program could take it in the fraction of a second before the client binds it; the
/// client then says the port is taken, and running the demo again picks another.
enum LoopbackPort {
    static func freeUDP() throws(DemoError) -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw DemoError("cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound, address.sin_port != 0 else {
            throw DemoError("cannot find a free UDP port on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        return UInt16(bigEndian: address.sin_port)
    }
}
