import Foundation
import IntercomBase
@testable import IntercomPhone
import IntercomPhoneTestSupport
import IntercomTestSupport
import Testing

/// A real core's TCP connection is watched by the phone thread once belle-sip has read SIP from it:
/// an idle thread sleeps 500 ms between iterates (`IteratePace`), and a request on a connection it did
/// not watch (a registrar's, a panel's TCP connection) would wait for that timer before it rang.
@Suite(.serialized, .removesTestFolders) struct SIPStreamSocketWakeTests {
    @Test func aConnectionBelleSIPReadIsWatched() async throws {
        let (phone, _) = try await PhoneTestSupport.phone(
            "tcp-wake", listen: [ListenAddress(transport: .tcp, host: "127.0.0.1", port: 0)])
        try await withCleanup({ await phone.stop() }) {
            let port = try #require(phone.listening.first { $0.transport == .tcp }?.port)
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(client >= 0)
            defer { close(client) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(connected == 0, "connect to the phone's TCP listener: errno \(errno)")
            let localPort = Self.localPort(of: client)
            let options = """
                OPTIONS sip:tcp-wake@127.0.0.1:\(port);transport=tcp SIP/2.0\r
                Via: SIP/2.0/TCP 127.0.0.1:\(localPort);branch=z9hG4bK-wake-1\r
                Max-Forwards: 70\r
                From: <sip:probe@127.0.0.1>;tag=wake\r
                To: <sip:tcp-wake@127.0.0.1>\r
                Call-ID: wake-1@127.0.0.1\r
                CSeq: 1 OPTIONS\r
                Content-Length: 0\r
                \r

                """
            _ = options.withCString { send(client, $0, strlen($0), 0) }
            // The answer means belle-sip read the request through the hook.
            var reply = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            try #require(poll(&reply, 1, 10_000) == 1, "no answer to OPTIONS within 10 s")
            var buffer = [UInt8](repeating: 0, count: 2048)
            let count = recv(client, &buffer, buffer.count, 0)
            #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).hasPrefix("SIP/2.0 "))

            let watchedPeers = SIPStreamSockets.watched().map { Self.peerPort(of: $0) }
            #expect(watchedPeers.contains(localPort), "the phone's end of the connection is not watched: \(watchedPeers)")
        }
    }

    static func localPort(of fd: Int32) -> Int {
        port(of: fd) { getsockname(fd, $0, $1) }
    }

    static func peerPort(of fd: Int32) -> Int {
        port(of: fd) { getpeername(fd, $0, $1) }
    }

    static func port(of fd: Int32, _ name: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { name($0, &length) } }
        guard status == 0 else { return -1 }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
