import Foundation

/// One raw SIP request over UDP from a socket of its own on 127.0.0.1, and the first answer to it:
/// a stand-in for phones that only need to send a request or two (extra registrations of one account).
package enum UDPSIPExchange {
    /// Sends the message `build(localPort)` makes to 127.0.0.1:`port` and returns the first datagram
    /// that comes back within `wait`, as text; nil when none does.
    package static func send(to port: UInt16, wait: Duration = .seconds(2),
                     _ build: (_ localPort: UInt16) -> String) async throws -> String? {
        let peer = try RawSIPPeer(localHost: "127.0.0.1", tcp: false, remotePort: port)
        try peer.send(build(peer.localPort))
        return await peer.firstReply(within: wait)
    }
}
