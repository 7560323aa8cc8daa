import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A SIP peer made of one socket bound to a chosen loopback address (127.0.0.2 plays "another
/// machine on the network"), sending exactly the bytes a test writes — leading CRLFs, forged
/// From and Contact — and reading what comes back. What sipp cannot do: choose every byte.
package final class RawSIPPeer {
    package let fd: Int32
    package let tcp: Bool
    package let localHost: String
    private(set) var localPort: UInt16 = 0

    package init(localHost: String, tcp: Bool, remotePort: UInt16) throws {
        self.tcp = tcp
        self.localHost = localHost
        fd = socket(AF_INET, Int32(tcp ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        guard LoopbackAddress.with(localHost, port: 0, { bind(fd, $0, $1) }) == 0 else {
            close(fd)
            throw HarnessError("bind \(localHost): \(String(cString: strerror(errno)))")
        }
        guard LoopbackAddress.with(port: remotePort, { connect(fd, $0, $1) }) == 0 else {
            close(fd)
            throw HarnessError("connect 127.0.0.1:\(remotePort): \(String(cString: strerror(errno)))")
        }
        localPort = LoopbackAddress.boundPort(fd) ?? 0
    }

    deinit { close(fd) }

    package func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw HarnessError("send: \(String(cString: strerror(errno)))") }
    }

    /// Everything that arrives within `timeout` (or until the peer closes a TCP connection).
    package func receive(for timeout: Duration) async -> (text: String, closed: Bool) {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var closed = false
        // Drains what has come at each look; done early only when the peer closed or the socket failed.
        await TestPatience.eventually(within: timeout, every: .milliseconds(10)) {
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count > 0 { received += buffer.prefix(count); continue }
                if count == 0 && tcp { closed = true; return true }
                if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { closed = tcp; return true }
                return false
            }
        }
        return (String(decoding: received, as: UTF8.self), closed)
    }

    /// The first thing that arrives within `timeout`, as soon as it does; nil when nothing does.
    package func firstReply(within timeout: Duration) async -> String? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var reply: String?
        await TestPatience.eventually(within: timeout, every: .milliseconds(5)) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { reply = String(decoding: buffer.prefix(count), as: UTF8.self) }
            return reply != nil
        }
        return reply
    }

    /// An INVITE to `service@127.0.0.1:remotePort` whose From and Contact say `claimedUser@claimedHost`.
    package func invite(service: String, remotePort: UInt16, claimedUser: String, claimedHost: String, callID: String,
                displayName: String = "Panel", prefix: String = "") -> String {
        let transport = tcp ? "TCP" : "UDP"
        let sdp = [
            "v=0", "o=\(claimedUser) 1 1 IN IP4 \(localHost)", "s=Beward", "c=IN IP4 \(localHost)", "t=0 0",
            "m=audio 40000 RTP/AVP 8 101", "a=rtpmap:8 PCMA/8000", "a=rtpmap:101 telephone-event/8000", "a=sendrecv", "",
        ].joined(separator: "\n")
        return prefix + SIPMessage("INVITE sip:\(service)@127.0.0.1:\(remotePort) SIP/2.0", headers: [
            "Via: SIP/2.0/\(transport) \(localHost):\(localPort);branch=z9hG4bK-\(callID);rport",
            "From: \"\(displayName)\" <sip:\(claimedUser)@\(claimedHost)>;tag=t-\(callID)",
            "To: <sip:\(service)@127.0.0.1:\(remotePort)>",
            "Call-ID: \(callID)",
            "CSeq: 1 INVITE",
            "Contact: <sip:\(claimedUser)@\(claimedHost):5060>",
            "Max-Forwards: 70",
        ], body: sdp).wire
    }
}
