@testable import IntercomPhone
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// The phone thread's own reading of SIP: the request head, the 403 it sends strangers, the Call-IDs the source ledger keeps.
@Suite(.removesTestFolders) struct SIPRequestReadingTests {
    static let invite = [
        "INVITE sip:door@192.168.1.2 SIP/2.0",
        "Via: SIP/2.0/UDP 10.0.0.9:5060;branch=z9hG4bK-abc;rport",
        "v: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-proxy",
        "f: \"Scanner\" <sip:100@10.0.0.9>;tag=x1",
        "To: <sip:door@192.168.1.2>",
        "i: call-1@10.0.0.9",
        "CSeq: 1 INVITE",
        "m: <sip:100@10.0.0.9:5060>",
        "Subject: folded",
        " onto two lines",
        "Content-Length: 0", "", "",
    ].joined(separator: "\r\n")

    @Test func headOfARequest() throws {
        let head = try #require(SIPRequestHead(Array(Self.invite.utf8)))
        #expect(head.method == "INVITE")
        #expect(head.first("from") == "\"Scanner\" <sip:100@10.0.0.9>;tag=x1")
        #expect(head.all("via").count == 2)
        #expect(head.branch == "z9hG4bK-abc")
        #expect(head.contactHost == "10.0.0.9")
        #expect(head.first("subject") == "folded onto two lines")
        #expect(!head.hasToTag)
        #expect(SIPRequestHead(Array("INVITE sip:x SIP/2.0\r\nVia: a".utf8)) == nil, "no blank line: not a whole head")
        let response = try #require(SIPRequestHead(Array("SIP/2.0 200 OK\r\nTo: <sip:a@b>;tag=9\r\n\r\n".utf8)))
        #expect(response.method == nil && response.hasToTag)
    }

    @Test func theForbiddenAnswer() throws {
        let head = try #require(SIPRequestHead(Array(Self.invite.utf8)))
        let reply = try #require(SIPStatelessReply.response("403 Forbidden", to: head))
        let text = String(decoding: reply, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.first == "SIP/2.0 403 Forbidden")
        #expect(lines.filter { $0.hasPrefix("Via: ") } == ["Via: SIP/2.0/UDP 10.0.0.9:5060;branch=z9hG4bK-abc;rport",
                                                           "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-proxy"])
        #expect(lines.contains("Call-ID: call-1@10.0.0.9") && lines.contains("CSeq: 1 INVITE"))
        #expect(lines.contains { $0.hasPrefix("To: <sip:door@192.168.1.2>;tag=") })
        #expect(text.hasSuffix("Content-Length: 0\r\n\r\n"))
        // A retransmission gets the same answer, tag included.
        #expect(SIPStatelessReply.response("403 Forbidden", to: head) == reply)
        let noCallID = try #require(SIPRequestHead(Array(Self.invite.replacingOccurrences(of: "i: call-1@10.0.0.9\r\n", with: "").utf8)))
        #expect(SIPStatelessReply.response("403 Forbidden", to: noCallID) == nil)
    }

    @Test func leadingLineBreaksAreSkippedAsBelleSIPSkipsThem() throws {
        let head = try #require(SIPRequestHead(Array(("\r\n\r\n\n" + Self.invite).utf8)))
        #expect(head.method == "INVITE")
        #expect(head.first("call-id") == "call-1@10.0.0.9")
    }

    @Test func inviteCallIDsAreFoundInAnyPieceOfTraffic() {
        func scan(_ text: String) -> [String] { Array(text.utf8).withUnsafeBytes { SIPCallIDScanner.inviteCallIDs(in: $0) } }
        let bye = "BYE sip:a@b SIP/2.0\r\nCall-ID:   bye@x \r\nCSeq: 2 BYE\r\n\r\n"
        let second = "\r\nINVITE sip:a@b SIP/2.0\r\nCall-ID:   second@x \r\nCSeq: 1 INVITE\r\n\r\n"
        // Several messages in one TCP read: only the INVITEs' Call-IDs, compact form included.
        #expect(scan(Self.invite + bye + second) == ["call-1@10.0.0.9", "second@x"])
        #expect(scan("\r\n\r\n" + Self.invite) == ["call-1@10.0.0.9"])
        // A read that starts inside a message cannot say what the message is.
        #expect(scan("Call-ID: torn@x\r\n\r\n").isEmpty)
        #expect(scan("INVITE sip:a@b SIP/2.0\r\nCall-Info: <x>\r\nXi: y\r\ncall-idx: z\r\nCALL-ID:\r\n\r\n").isEmpty)
    }

    @Test func theLedgerKnowsOneSourcePerCallAndForgetsWhatItGaveOut() {
        let ledger = SIPSourceLedger()
        func observe(_ text: String, from address: String) {
            Array(text.utf8).withUnsafeBytes { ledger.observe($0, from: address) }
        }
        observe(Self.invite, from: "10.0.0.9")
        observe(Self.invite, from: "10.0.0.9")
        #expect(ledger.takeSource(callID: "call-1@10.0.0.9") == "10.0.0.9")
        #expect(ledger.takeSource(callID: "call-1@10.0.0.9") == nil, "taken out at lookup")
        // The same Call-ID from a second address: nobody's.
        observe(Self.invite, from: "10.0.0.9")
        observe(Self.invite, from: "127.0.0.2")
        #expect(ledger.takeSource(callID: "call-1@10.0.0.9") == nil)
        // Bounded: the oldest are forgotten first.
        for n in 0...SIPSourceLedger.capacity {
            observe(Self.invite.replacingOccurrences(of: "call-1@", with: "flood-\(n)@"), from: "203.0.113.1")
        }
        #expect(ledger.takeSource(callID: "flood-0@10.0.0.9") == nil)
        #expect(ledger.takeSource(callID: "flood-\(SIPSourceLedger.capacity)@10.0.0.9") == "203.0.113.1")
    }
}
