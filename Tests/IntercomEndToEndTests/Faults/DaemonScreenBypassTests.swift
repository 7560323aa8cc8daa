import Foundation
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Two spellings that hid a long From display name from the header screen while belle-sip read it, so
/// liblinphone crashed (SIGSEGV, exit 139, one UDP datagram from anyone; both found with the `sip`
/// fuzz target): blanks before the colon (`From                    :`, which RFC 3261 allows), and
/// bare LFs inside the value (`From: "A…\nxyz\n\tA…"`, one header to belle-sip, three lines to the screen).
@Suite("faults: header spellings that got past the screen", .removesTestFolders) struct DaemonScreenBypassTests {
    static func invite(port: UInt16, localPort: UInt16, fromName: String = "From", callID: String,
                       displayName: String = String(repeating: "A", count: 1100)) -> String {
        // The From line as given: its name and display name are the hostile spellings (bare LFs stay bare).
        SIPMessage("INVITE sip:resident@127.0.0.1:\(port) SIP/2.0", headers: [
            "Via: SIP/2.0/UDP 127.0.0.1:\(localPort);branch=z9hG4bK-\(callID)",
            "\(fromName): \"\(displayName)\" <sip:100001@127.0.0.1:\(localPort)>;tag=1",
            "To: <sip:resident@127.0.0.1:\(port)>", "Call-ID: \(callID)@127.0.0.1", "CSeq: 1 INVITE",
            "Contact: <sip:100001@127.0.0.1:\(localPort)>", "Max-Forwards: 70",
        ], body: "v=0\no=p 1 1 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio 40000 RTP/AVP 8\na=rtpmap:8 PCMA/8000\n").wire
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
