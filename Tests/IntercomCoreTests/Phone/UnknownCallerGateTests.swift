@testable import IntercomCore
import Testing

/// The phone thread's own answer to strangers: reading the request, deciding, and the 403 it sends.
@Suite struct UnknownCallerGateTests {
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

    @Test func admitsByTheEnginesRules() {
        let entrance = PanelConfig(name: "entrance", url: "http://192.168.1.50", match: [.uriPrefix("sip:100001@")])
        let gate = PanelConfig(name: "gate", url: "http://192.168.1.51", match: [.ip("192.168.1.51")])
        let screen = UnknownCallerGate(panels: [entrance, gate])
        #expect(screen.admits(from: "\"Door\" <sip:100001@192.0.2.2>;tag=1", contactHost: "192.168.1.50"))
        #expect(screen.admits(from: "<SIP:100001@x>;tag=1", contactHost: nil))
        #expect(screen.admits(from: "<sip:7@192.0.2.2>;tag=1", contactHost: "192.168.1.51"))
        #expect(!screen.admits(from: "<sip:scanner@192.168.1.51>;tag=1", contactHost: "203.0.113.5"))
        #expect(!screen.admits(from: "<sip:1000010@x>", contactHost: nil))
        screen.update(panels: [gate])
        #expect(!screen.admits(from: "<sip:100001@192.0.2.2>;tag=1", contactHost: "192.168.1.50"))
    }
}
