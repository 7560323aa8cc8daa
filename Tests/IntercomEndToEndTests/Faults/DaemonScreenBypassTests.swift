import Foundation
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Two spellings that hid a long From display name from the header screen while belle-sip read it, so
/// liblinphone crashed (SIGSEGV, exit 139, one UDP datagram from anyone; both found with the `sip`
/// fuzz target): blanks before the colon (`From                    :`, which RFC 3261 allows), and
/// bare LFs inside the value (`From: "A…\nxyz\n\tA…"`, one header to belle-sip, three lines to the screen).
@Suite("faults: header spellings that got past the screen") struct DaemonScreenBypassTests {
    static func invite(port: UInt16, localPort: UInt16, fromName: String = "From", callID: String,
                       displayName: String = String(repeating: "A", count: 1100)) -> String {
        let sdp = "v=0\r\no=p 1 1 IN IP4 127.0.0.1\r\ns=x\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
            + "m=audio 40000 RTP/AVP 8\r\na=rtpmap:8 PCMA/8000\r\n"
        return "INVITE sip:resident@127.0.0.1:\(port) SIP/2.0\r\n"
            + "Via: SIP/2.0/UDP 127.0.0.1:\(localPort);branch=z9hG4bK-\(callID)\r\n"
            + "\(fromName): \"\(displayName)\" <sip:100001@127.0.0.1:\(localPort)>;tag=1\r\n"
            + "To: <sip:resident@127.0.0.1:\(port)>\r\nCall-ID: \(callID)@127.0.0.1\r\nCSeq: 1 INVITE\r\n"
            + "Contact: <sip:100001@127.0.0.1:\(localPort)>\r\nMax-Forwards: 70\r\n"
            + "Content-Type: application/sdp\r\nContent-Length: \(sdp.utf8.count)\r\n\r\n" + sdp
    }

    @Test("a panel's INVITE with a long From display name behind blanks or bare LFs is dropped, and the daemon lives")
    func hiddenLongFromIsScreened() async throws {
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0

            [panel front]
            url = http://127.0.0.1:9
            match = sip:100001@
            """, name: "screenbypass")
        try await daemon.waitUntilStarted()
        let port = try daemon.port("udp")
        let long = String(repeating: "A", count: 400)
        let spellings = [("From" + String(repeating: " ", count: 20), String(repeating: "A", count: 1100)),
                         ("f" + String(repeating: "\t", count: 20), String(repeating: "A", count: 1100)),
                         ("From", "\(long)\nxyz\n\t\(long)\(long)"),
                         ("From", "\(long)\n\t\(long)\(long)")]
        for (index, (name, displayName)) in spellings.enumerated() {
            let answer = try await UDPSIPExchange.send(to: port, wait: .seconds(1)) { local in
                Self.invite(port: port, localPort: local, fromName: name, callID: "bypass\(index)", displayName: displayName)
            }
            #expect(answer == nil, "spelling \(index) reached belle-sip: \(answer ?? "")")
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(daemon.process.isRunning, "the daemon died: \(daemon.log.suffix(2000))")
        #expect(!daemon.names.contains("call_incoming"), "\(daemon.names)")
        #expect(daemon.log.contains("dropped a SIP message"), "\(daemon.log)")
        let exit = await daemon.stop()
        #expect(exit == 0, "\(daemon.log.suffix(2000))")
    }
}
