import Foundation
@testable import IntercomPhone
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// The screen in front of belle-sip: what liblinphone cannot survive is refused, nothing a
/// panel or phone sends is.
@Suite(.removesTestFolders) struct SIPHeaderScreenTests {
    static func invite(from: String = "\"Panel\" <sip:100001@192.168.1.50>;tag=1", to: String = "<sip:door@192.168.1.2>",
                       contact: String = "<sip:100001@192.168.1.50:5060>", extra: [String] = []) -> [UInt8] {
        let lines = [
            "INVITE sip:door@192.168.1.2 SIP/2.0",
            "Via: SIP/2.0/UDP 192.168.1.50:5060;branch=z9hG4bK-1",
            "From: \(from)", "To: \(to)", "Call-ID: 1@192.168.1.50", "CSeq: 1 INVITE",
            "Contact: \(contact)", "Max-Forwards: 70",
        ] + extra + ["Content-Type: application/sdp", "Content-Length: 13", "", "v=0", "t=0 0", ""]
        return Array(lines.joined(separator: "\r\n").utf8)
    }

    @Test func ordinaryMessagesPass() {
        #expect(SIPHeaderScreen.screen(Self.invite()) == nil)
        let instance = "<sip:101@10.0.0.5:5060;transport=udp>;+sip.instance=\"<urn:uuid:\(String(repeating: "a", count: 36))>\";expires=3600"
        #expect(SIPHeaderScreen.screen(Self.invite(contact: instance)) == nil)
        // Big headers that are not addresses are belle-sip's business (it copes).
        #expect(SIPHeaderScreen.screen(Self.invite(extra: ["X-Junk: " + String(repeating: "x", count: 60_000)])) == nil)
        #expect(SIPHeaderScreen.screen(Array("SIP/2.0 200 OK\r\nFrom: <sip:a@b>\r\n\r\n".utf8)) == nil)
        #expect(SIPHeaderScreen.screen(Array("\r\n\r\n".utf8)) == nil)
        #expect(SIPHeaderScreen.screen([0xFF, 0x00, 0x3A, 0x0A, 0x20, 0x3A]) == nil)
    }

    @Test func longAddressHeadersAreRefused() {
        let long = String(repeating: "d", count: 1100)
        #expect(SIPHeaderScreen.screen(Self.invite(from: "\"\(long)\" <sip:1@h>;tag=1"))?.header == "From")
        #expect(SIPHeaderScreen.screen(Self.invite(from: "\(long) <sip:1@h>;tag=1"))?.header == "From")
        #expect(SIPHeaderScreen.screen(Self.invite(to: "<sip:door@\(long)>"))?.header == "To")
        #expect(SIPHeaderScreen.screen(Self.invite(contact: "<sip:\(long)@h>"))?.header == "Contact")
        // Compact forms, odd case and spacing.
        #expect(SIPHeaderScreen.screen(Self.invite(extra: ["f : <sip:\(long)@h>"]))?.header == "From")
        #expect(SIPHeaderScreen.screen(Self.invite(extra: ["CONTACT:<sip:\(long)@h>"]))?.header == "Contact")
        #expect(SIPHeaderScreen.screen(Self.invite(extra: ["m: <sip:\(long)@h>"]))?.header == "Contact")
    }

    @Test func foldedLinesCountTowardTheirHeader() {
        let piece = String(repeating: "d", count: 300)
        let folded = Self.invite(extra: ["To: \"\(piece)", " \(piece)\" <sip:1@h>"])
        #expect(SIPHeaderScreen.screen(folded)?.header == "To")
        // A fold after an ordinary header is no address.
        #expect(SIPHeaderScreen.screen(Self.invite(extra: ["Subject: \(piece)", " \(piece)"])) == nil)
    }

    @Test func theLimitIsExact() {
        // "From: " plus the value, CR not counted.
        let value = String(repeating: "a", count: SIPHeaderScreen.maxAddressHeaderBytes - "From: ".count)
        #expect(SIPHeaderScreen.screen(Array("INVITE x SIP/2.0\r\nFrom: \(value)\r\n\r\n".utf8)) == nil)
        #expect(SIPHeaderScreen.screen(Array("INVITE x SIP/2.0\r\nFrom: \(value)a\r\n\r\n".utf8)) != nil)
    }

    @Test func piecesAddUp() {
        var screen = SIPHeaderScreen()
        let message = Self.invite(from: String(repeating: "x", count: 700))
        var refusal: SIPHeaderScreen.Refusal?
        for chunk in stride(from: 0, to: message.count, by: 50) {
            refusal = screen.feed(message[chunk..<min(chunk + 50, message.count)])
            if refusal != nil { break }
        }
        #expect(refusal?.header == "From")
    }
}

/// The read hook screens each SIP message once, where belle-sip reads it, and says where it came from.
@Suite(.removesTestFolders) struct SIPIngressHookTests {
    @Test func theHookIsInPlaceWhereTheTestsRunPhones() {
        // The test target links with the export flags, as intercom-full does; without them a
        // phone cannot tell callers by address.
        #expect(SIPIngress.inPlace)
    }

    @Test func aRefusalIsReportedWithItsSourceOnce() throws {
        _ = SIPIngressRefusals.shared.take()
        let hostile = Array("INVITE sip:a@b SIP/2.0\r\nFrom: \(String(repeating: "x", count: 2000))\r\n\r\n".utf8)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(5070).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0002).bigEndian
        let refused = hostile.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    intercomSIPMessageRefused(bytes.baseAddress, bytes.count, $0,
                                              UInt32(MemoryLayout<sockaddr_in>.size), -1)
                }
            }
        }
        #expect(refused == 1)
        let report = try #require(SIPIngressRefusals.shared.take())
        #expect(report.count >= 1 && report.source == "127.0.0.2:5070" && report.refusal.header == "From")
    }
}
