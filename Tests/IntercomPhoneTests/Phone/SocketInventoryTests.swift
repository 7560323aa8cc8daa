#if canImport(Glibc)
import Glibc
#endif
import IntercomBase
@testable import IntercomPhone
import Testing

/// The phone's own SIP sockets, found by asking each of the process's sockets for its type and port
/// (not from /proc/net tables, which skipped the daemon's socket under a parallel test run).
@Suite struct SocketInventoryTests {
    /// A loopback socket of `type` on a free port (listening when `listen`); its descriptor and port.
    static func socket(_ type: Int32, listen: Bool = false) throws -> (fd: Int32, port: Int) {
        let fd = Glibc.socket(AF_INET, type, 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0)
        if listen { try #require(Glibc.listen(fd, 1) == 0) }
        return (fd, try #require(SocketInventory.localPort(of: fd)))
    }

    @Test func findsTheUDPSocketAndTheTCPListenerOnTheirPortsOnly() throws {
        let udp = try Self.socket(Int32(SOCK_DGRAM.rawValue))
        let tcp = try Self.socket(Int32(SOCK_STREAM.rawValue), listen: true)
        let idle = try Self.socket(Int32(SOCK_STREAM.rawValue))
        defer { close(udp.fd); close(tcp.fd); close(idle.fd) }
        #expect(SocketInventory.descriptors(for: [ListenAddress(transport: .udp, host: "127.0.0.1", port: udp.port)]) == [udp.fd])
        #expect(SocketInventory.descriptors(for: [ListenAddress(transport: .tcp, host: "127.0.0.1", port: tcp.port)]) == [tcp.fd])
        #expect(SocketInventory.descriptors(for: [ListenAddress(transport: .tcp, host: "127.0.0.1", port: idle.port)]).isEmpty,
                "a TCP socket that does not listen is no listener")
        #expect(SocketInventory.descriptors(for: [ListenAddress(transport: .tcp, host: "127.0.0.1", port: udp.port)]).isEmpty,
                "the UDP port asked for over TCP")
    }
}
