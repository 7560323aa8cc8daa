import Foundation
import Testing

/// `From                    :` (blanks before the colon, which RFC 3261 allows and belle-sip reads as
/// From) hid a 1100-character display name from the header screen, and liblinphone crashed on it
/// (SIGSEGV, exit 139, one UDP datagram from anyone). Found with the `sip` fuzz target's invariant.
@Suite("faults: blanks before a header's colon") struct DaemonBlankHeaderNameTests {
    static func invite(port: UInt16, localPort: UInt16, fromName: String, callID: String) -> String {
        let sdp = "v=0\r\no=p 1 1 IN IP4 127.0.0.1\r\ns=x\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
            + "m=audio 40000 RTP/AVP 8\r\na=rtpmap:8 PCMA/8000\r\n"
        return "INVITE sip:resident@127.0.0.1:\(port) SIP/2.0\r\n"
            + "Via: SIP/2.0/UDP 127.0.0.1:\(localPort);branch=z9hG4bK-\(callID)\r\n"
            + "\(fromName): \"\(String(repeating: "A", count: 1100))\" <sip:100001@127.0.0.1:\(localPort)>;tag=1\r\n"
            + "To: <sip:resident@127.0.0.1:\(port)>\r\nCall-ID: \(callID)@127.0.0.1\r\nCSeq: 1 INVITE\r\n"
            + "Contact: <sip:100001@127.0.0.1:\(localPort)>\r\nMax-Forwards: 70\r\n"
            + "Content-Type: application/sdp\r\nContent-Length: \(sdp.utf8.count)\r\n\r\n" + sdp
    }

    @Test("a panel's INVITE with a 1100-character From behind blanks before the colon is dropped, and the daemon lives")
    func blankedFromIsScreened() async throws {
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0

            [panel front]
            url = http://127.0.0.1:9
            match = sip:100001@
            """, name: "blankfrom")
        try await daemon.waitUntilStarted()
        let port = try daemon.port("udp")
        for (index, name) in ["From" + String(repeating: " ", count: 20), "f" + String(repeating: "\t", count: 20)].enumerated() {
            let answer = try UDPSIPExchange.send(to: port, wait: .seconds(1)) { local in
                Self.invite(port: port, localPort: local, fromName: name, callID: "blank\(index)")
            }
            #expect(answer == nil, "the INVITE reached belle-sip: \(answer ?? "")")
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(daemon.process.isRunning, "the daemon died: \(daemon.log.suffix(2000))")
        #expect(!daemon.names.contains("call_incoming"), "\(daemon.names)")
        #expect(daemon.log.contains("dropped a SIP message"), "\(daemon.log)")
        let exit = await daemon.stop()
        #expect(exit == 0, "\(daemon.log.suffix(2000))")
    }
}
