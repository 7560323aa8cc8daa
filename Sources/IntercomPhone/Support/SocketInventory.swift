import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// Finds this process's own file descriptors for sockets bound to given local ports: every socket
/// in /proc/self/fd is asked for its type and local port (`getsockname`). liblinphone does not
/// hand out its SIP sockets; watching them lets the linphone thread sleep long when idle yet wake
/// the moment an INVITE arrives, and the read gate knows its UDP sockets by them.
///
/// Not through /proc/net/udp and tcp: those tables hold every socket of the machine and are read
/// a page at a time, and while other processes open and close sockets an entry can be skipped
/// between pages. Under a parallel test run the daemon's own UDP socket went missing that way now
/// and then, and with it every screen of the read gate (a stranger's SUBSCRIBE answered 200 OK).
enum SocketInventory {
    static func descriptors(for addresses: [ListenAddress]) -> [Int32] {
        guard !addresses.isEmpty,
              let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        var found: [Int32] = []
        for entry in entries {
            guard let fd = Int32(entry),
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                  target.hasPrefix("socket:["), let socket = bound(fd) else { continue }
            let wanted = addresses.contains { address in
                address.port == socket.port && (address.transport == .udp ? socket.datagram : socket.listening)
            }
            if wanted { found.append(fd) }
        }
        return found.sorted()
    }

    /// A socket's local port, whether it is a datagram socket, and whether it listens (TCP).
    private static func bound(_ fd: Int32) -> (port: Int, datagram: Bool, listening: Bool)? {
        guard let port = localPort(of: fd) else { return nil }
        return (port, option(fd, SO_TYPE) == Int32(SOCK_DGRAM.rawValue), option(fd, SO_ACCEPTCONN) == 1)
    }

    /// The local port an IPv4 or IPv6 socket is bound to (for a connection accepted by a listener,
    /// the listening port).
    static func localPort(of fd: Int32) -> Int? {
        var local = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        // sin_port and sin6_port both sit right after the family.
        guard named, local.ss_family == sa_family_t(AF_INET) || local.ss_family == sa_family_t(AF_INET6) else { return nil }
        return withUnsafeBytes(of: &local) { Int(UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self))) }
    }

    private static func option(_ fd: Int32, _ name: Int32) -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
    }
}
