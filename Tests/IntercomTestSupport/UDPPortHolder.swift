import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Holds a UDP socket bound to 127.0.0.1:<free port> until deinit, so another program cannot bind
/// it; what arrives there can be read (`receive`), e.g. the INVITE a simulated panel sends.
package final class UDPPortHolder: @unchecked Sendable {
    package let fd: Int32
    package let port: UInt16

    package init() throws {
        let sock = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard sock >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        guard LoopbackAddress.with(port: 0, { bind(sock, $0, $1) }) == 0, let bound = LoopbackAddress.boundPort(sock) else {
            close(sock)
            throw HarnessError("bind failed: errno \(errno)")
        }
        fd = sock
        port = bound
    }

    deinit { close(fd) }

    /// The first datagram holding `text`; throws after `timeout`.
    package func receive(containing text: String, timeout: Duration) async throws -> String {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var found: String?
        await TestPatience.eventually(within: timeout, every: .milliseconds(10)) {
            while found == nil {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard n > 0 else { return false }
                let datagram = String(decoding: buffer.prefix(n), as: UTF8.self)
                if datagram.contains(text) { found = datagram }
            }
            return true
        }
        guard let found else { throw HarnessError.timeout("a datagram with \"\(text)\"", after: timeout) }
        return found
    }
}
