@testable import IntercomPhone
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// A Contact header is judged per binding (512 bytes each, 4 KB in all): a registrar's 200 OK lists
/// every binding of the account in one header, while one long address is refused as before.
@Suite(.removesTestFolders) struct SIPHeaderScreenContactListTests {
    static func binding(_ index: Int) -> String {
        "<sip:resident@127.0.0.1:\(40_000 + index);transport=udp>;expires=3600"
            + ";+sip.instance=\"<urn:uuid:0b4a6e4e-6c3f-4a7e-9a1d-5f6a2d1e9c\(10 + index)>\";reg-id=1"
    }

    static func registerOK(contact: String) -> [UInt8] {
        Array(("SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bK.a\r\n"
            + "From: <sip:resident@127.0.0.1>;tag=a\r\nTo: <sip:resident@127.0.0.1>;tag=b\r\n"
            + "Call-ID: c\r\nCSeq: 2 REGISTER\r\nContact: \(contact)\r\nContent-Length: 0\r\n\r\n").utf8)
    }

    @Test func fiveBindingsInOneContactPass() {
        let contact = (0..<5).map(Self.binding).joined(separator: ", ")
        #expect(contact.utf8.count > SIPHeaderScreen.maxAddressHeaderBytes)
        #expect(SIPHeaderScreen.screen(Self.registerOK(contact: contact)) == nil)
        // The same list as an INVITE's Contact, and folded after each comma.
        #expect(SIPHeaderScreen.screen(SIPHeaderScreenTests.invite(contact: contact)) == nil)
        #expect(SIPHeaderScreen.screen(Self.registerOK(contact: (0..<5).map(Self.binding).joined(separator: ",\r\n "))) == nil)
    }

    @Test func oneLongBindingIsStillRefused() {
        let long = String(repeating: "d", count: 600)
        let list = [Self.binding(0), "<sip:\(long)@h>", Self.binding(1)].joined(separator: ", ")
        #expect(SIPHeaderScreen.screen(Self.registerOK(contact: list)) == Refusal(header: "Contact"))
        // The crash: a display name of about 1 KB, in a Contact this time.
        #expect(SIPHeaderScreen.screen(SIPHeaderScreenTests.invite(contact: "\"\(long)\(long)\" <sip:1@h>"))?.header == "Contact")
    }

    @Test func commasInsideQuotesOrBracketsDoNotSplit() {
        let commas = String(repeating: "a,", count: 300)
        #expect(SIPHeaderScreen.screen(Self.registerOK(contact: "\"\(commas)\" <sip:1@h>"))?.header == "Contact")
        #expect(SIPHeaderScreen.screen(Self.registerOK(contact: "<sip:\(commas)@h>"))?.header == "Contact")
        // An escaped quote does not end the quoted name; an unclosed quote never lets a comma split.
        #expect(SIPHeaderScreen.screen(Self.registerOK(contact: "\"x\\\"\(commas)\" <sip:1@h>"))?.header == "Contact")
        #expect(SIPHeaderScreen.screen(Self.registerOK(contact: "\"\(commas)"))?.header == "Contact")
        // From and To hold one address: commas never split them.
        #expect(SIPHeaderScreen.screen(SIPHeaderScreenTests.invite(from: commas))?.header == "From")
    }

    @Test func theWholeListHasALimitToo() {
        let many = (0..<40).map(Self.binding).joined(separator: ", ")
        #expect(many.utf8.count > SIPHeaderScreen.maxContactListBytes)
        let refusal = SIPHeaderScreen.screen(Self.registerOK(contact: many))
        #expect(refusal == Refusal(header: "Contact", limit: SIPHeaderScreen.maxContactListBytes))
        #expect(refusal?.description == "a Contact header longer than 4096 bytes")
    }

    @Test func piecesJudgeLikeTheWhole() {
        for contact in [(0..<5).map(Self.binding).joined(separator: ","), "\"\(String(repeating: "a,", count: 300))\""] {
            let message = Self.registerOK(contact: contact)
            for size in [1, 7, 64] {
                var screen = SIPHeaderScreen()
                var refusal: Refusal?
                for start in stride(from: 0, to: message.count, by: size) where refusal == nil {
                    refusal = screen.feed(message[start..<min(start + size, message.count)])
                }
                #expect(refusal == SIPHeaderScreen.screen(message), "\(size)-byte pieces")
            }
        }
    }

    typealias Refusal = SIPHeaderScreen.Refusal
}

/// What the `sip` fuzz target's invariant turned up: blanks before the colon (RFC 3261 HCOLON) made a
/// From name longer than the screen's name cut, so `From                    : "<1100 × A>" <sip:…>`
/// passed the screen, and belle-sip, which reads it as From, handed it to liblinphone: SIGSEGV.
@Suite(.removesTestFolders) struct SIPHeaderScreenBlankNameTests {
    @Test(arguments: ["From" + String(repeating: " ", count: 20), "f\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t", "Contact \t \t \t \t \t \t \t \t \t", "TO                                "])
    func blanksBeforeTheColonDoNotHideTheHeader(name: String) {
        let message = Array("INVITE sip:a@b SIP/2.0\r\n\(name): \"\(String(repeating: "A", count: 1100))\" <sip:1@h>;tag=1\r\n\r\n".utf8)
        #expect(SIPHeaderScreen.screen(message) != nil, "\(name.count)-byte name")
    }

    @Test func blanksCountTowardTheLimit() {
        let value = String(repeating: "a", count: SIPHeaderScreen.maxAddressHeaderBytes - "From  : ".count)
        #expect(SIPHeaderScreen.screen(Array("INVITE x SIP/2.0\r\nFrom  : \(value)\r\n\r\n".utf8)) == nil)
        #expect(SIPHeaderScreen.screen(Array("INVITE x SIP/2.0\r\nFrom  : \(value)a\r\n\r\n".utf8))?.header == "From")
        // Long names that are no address header still pass.
        #expect(SIPHeaderScreen.screen(Array("INVITE x SIP/2.0\r\nX-Something-Long-Header   : \(value)\(value)\r\n\r\n".utf8)) == nil)
    }
}

/// belle-sip ends a header at CRLF only: a From with bare LFs inside is one header to it, however
/// many lines it is to a reader that splits at LF. The `sip` fuzz target found one that crashed it.
@Suite(.removesTestFolders) struct SIPHeaderScreenBareLFTests {
    static let long = String(repeating: "A", count: 400)

    @Test(arguments: ["\(long)\nxyz\n\t\(long)\(long)", "\(long)\n\t\(long)\(long)", "\(long)\n\(long)\n\(long)"])
    func anAddressHeaderGoesOnThroughBareLFs(displayName: String) {
        let message = Array("INVITE sip:a@b SIP/2.0\r\nFrom: \"\(displayName)\" <sip:1@h>;tag=1\r\nTo: <sip:b@h>\r\n\r\n".utf8)
        #expect(SIPHeaderScreen.screen(message)?.header == "From")
    }

    @Test func aHeaderAfterABareLFIsStillSeen() {
        let message = Array("INVITE sip:a@b SIP/2.0\r\nX-A: y\nFrom: \"\(Self.long)\(Self.long)\" <sip:1@h>\r\n\r\n".utf8)
        #expect(SIPHeaderScreen.screen(message)?.header == "From")
        // Short headers joined by bare LFs pass; CRLF still ends a header's count.
        #expect(SIPHeaderScreen.screen(Array("INVITE x SIP/2.0\r\nFrom: <sip:1@h>\nTo: <sip:2@h>\r\nContact: <sip:1@h>\r\n\r\n".utf8)) == nil)
        let crlf = (0..<3).map { _ in "From: \"\(Self.long)\"\r\n" }.joined()
        #expect(SIPHeaderScreen.screen(Array("INVITE x SIP/2.0\r\n\(crlf)\r\n".utf8)) == nil)
        // A CR, then an LF of its own: the second LF is bare.
        #expect(SIPHeaderScreen.screen(Array("INVITE x SIP/2.0\r\nFrom: \"\(Self.long)\r\n\n\(Self.long)\"\r\n\r\n".utf8)) != nil)
    }
}
