import Foundation
@testable import IntercomCore
@testable import IntercomPhone
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// A registrar's 200 OK to REGISTER lists every binding of the account, and kamailio puts them all
/// in one comma-separated Contact header: with a handful of phones on one account it passes the
/// 512 bytes `SIPHeaderScreen` allows one address header (DECISIONS.md, "SIP is screened").
@Suite("daemon: registrar with many bindings", .removesTestFolders) struct DaemonRegistrarBindingsTests {
    static let instances = (1...4).map { _ in UUID().uuidString.lowercased() }

    /// What a phone registers: a contact of its own and the `+sip.instance` of RFC 5626, which kamailio echoes.
    static func register(account: String, registrar: UInt16, localPort: UInt16, contact: String?, cseq: Int) -> String {
        let callID = "bindings-\(localPort)-\(cseq)@127.0.0.1"
        return "REGISTER sip:127.0.0.1:\(registrar) SIP/2.0\r\n"
            + "Via: SIP/2.0/UDP 127.0.0.1:\(localPort);branch=z9hG4bK-bind-\(localPort)-\(cseq);rport\r\n"
            + "Max-Forwards: 70\r\n"
            + "From: <\(account)>;tag=bind\(localPort)\r\n"
            + "To: <\(account)>\r\n"
            + "Call-ID: \(callID)\r\n"
            + "CSeq: \(cseq) REGISTER\r\n"
            + (contact.map { "Contact: \($0)\r\nExpires: 3600\r\n" } ?? "")
            + "User-Agent: bindings-test\r\n"
            + "Content-Length: 0\r\n\r\n"
    }

    static func contactHeader(of response: String) -> String? {
        response.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("contact:") }
    }

    @Test("four phones registered on the account already: the daemon's 200 OK (five bindings, one long Contact) registers it")
    func registersBesideFourOtherBindings() async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let account = "sip:resident@\(kamailio.hostPort)"
        for (index, instance) in Self.instances.enumerated() {
            let answer = try #require(try await UDPSIPExchange.send(to: kamailio.port) { local in
                Self.register(account: account, registrar: kamailio.port, localPort: local,
                              contact: "<sip:resident@127.0.0.1:\(40_000 + index);transport=udp>"
                                  + ";+sip.instance=\"<urn:uuid:\(instance)>\";reg-id=1", cseq: 1)
            }, "kamailio did not answer a REGISTER")
            #expect(answer.hasPrefix("SIP/2.0 200"), "\(answer)\n\(kamailio.log)")
        }

        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0
            account = \(account)
            proxy = \(kamailio.uri)
            """, name: "bindings")
        try await daemon.waitUntilStarted()
        let registered = try await daemon.waitForEvent("registered", timeout: .seconds(15))
        #expect(registered.string("account") == account, "\(registered)")

        // What the daemon's 200 OK held: a query (REGISTER without Contact) gets the same list.
        let bindings = try #require(try await UDPSIPExchange.send(to: kamailio.port) { local in
            Self.register(account: account, registrar: kamailio.port, localPort: local, contact: nil, cseq: 1)
        }, "kamailio did not answer the query")
        let contact = try #require(Self.contactHeader(of: bindings), "\(bindings)")
        #expect(contact.utf8.count > SIPHeaderScreen.maxAddressHeaderBytes, "the Contact list is only \(contact.utf8.count) bytes: \(contact)")
        #expect(contact.components(separatedBy: "<sip:").count - 1 == 5, "\(contact)")
        #expect(!daemon.log.contains("dropped a SIP message"), "\(daemon.log)")
        DaemonEventChecks.expectWellFormed(daemon)
        await daemon.stop()
        await kamailio.stop()
    }
}
