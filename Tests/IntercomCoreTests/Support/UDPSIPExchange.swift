import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One raw SIP request over UDP from a socket of its own on 127.0.0.1, and the first answer to it:
/// a stand-in for phones that only need to send a request or two (extra registrations of one account).
enum UDPSIPExchange {
    /// Sends the message `build(localPort)` makes to 127.0.0.1:`port` and returns the first datagram
    /// that comes back within `wait`, as text; nil when none does.
    static func send(to port: UInt16, wait: Duration = .seconds(2),
                     _ build: (_ localPort: UInt16) -> String) throws -> String? {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        defer { close(fd) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw HarnessError("bind failed: errno \(errno)") }
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let (seconds, atto) = wait.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(atto / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        let bytes = Array(build(UInt16(bigEndian: local.sin_port)).utf8)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let sent = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard sent == bytes.count else { throw HarnessError("sendto 127.0.0.1:\(port) failed: errno \(errno)") }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let got = recv(fd, &buffer, buffer.count, 0)
        guard got > 0 else { return nil }
        return String(decoding: buffer[0..<got], as: UTF8.self)
    }
}
