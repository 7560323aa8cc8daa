import IntercomBase
import Testing
import IntercomTestSupport

/// One set of rules for SIP URIs: the header screen, caller matching, the phone's Contact hosts,
/// redaction and config checks all read them through `SIPURI`.
@Suite struct SIPURITests {
    @Test func aPlainURIHasEveryPart() throws {
        let uri = try #require(SIPURI(parsing: "sip:100001@10.0.0.5:5060;transport=udp;lr"))
        #expect(uri.scheme == .sip)
        #expect(uri.user == "100001")
        #expect(!uri.hasPassword)
        #expect(uri.host == "10.0.0.5")
        #expect(uri.port == 5060)
        #expect(uri.parameters == [.init(name: "transport", value: "udp"), .init(name: "lr")])
        #expect(uri.parameter("TRANSPORT") == .some("udp"))
        #expect(uri.parameter("lr") == .some(nil))
        #expect(uri.parameter("maddr") == nil)
        #expect(uri.headers == nil)
    }

    @Test(arguments: [
        // (text, host, port, user)
        ("sip:[2001:db8::1]:5062;transport=tcp", "2001:db8::1", 5062, nil),
        ("sip:door@[::1]", "::1", nil, "door"),
        ("sips:gate@example.org", "example.org", nil, "gate"),
        ("SIP:Door@Example.ORG:5070", "Example.ORG", 5070, "Door"),
        ("SiPs:pbx.example.org", "pbx.example.org", nil, nil),
        ("sip:pbx.example.org:5060;transport=tcp", "pbx.example.org", 5060, nil),
        ("\"Door\" <sip:100001@10.0.0.5:5060>;tag=abc", "10.0.0.5", 5060, "100001"),
        ("\"Do<or>\" <sip:1@192.0.2.1>;tag=x", "192.0.2.1", nil, "1"),
        ("<sip:2@[fe80::1]:5060;ob>;expires=60", "fe80::1", 5060, "2"),
        ("  sip:3@host?subject=a@b  ", "host", nil, "3"),
        ("sip:+7912;phone-context=x@gw.example", "gw.example", nil, "+7912;phone-context=x"),
    ] as [(String, String, Int?, String?)])
    func hostsPortsAndUsers(text: String, host: String, port: Int?, user: String?) throws {
        let uri = try #require(SIPURI(parsing: text))
        #expect(uri.host == host)
        #expect(uri.port.map(Int.init) == port)
        #expect(uri.user == user)
    }

    @Test(arguments: [
        "", "100001@10.0.0.5", "tel:+123456", "http://10.0.0.5", "sip:", "sip:101@", "sip:[::1", "sip:[::1]x",
        "sip:host:", "sip:host:99999", "sip:host:5x", "sip:[10.0.0.1]", "sip:ho st", "<>", "\"Door\" <tel:1>",
    ])
    func notSIPURIs(text: String) {
        #expect(SIPURI(parsing: text) == nil)
    }

    @Test func passwordsAreNotedNeverKept() throws {
        let uri = try #require(SIPURI(parsing: "sips:101:Pr1ntMe-Not@pbx:5061;transport=tls?X=1"))
        #expect(uri.scheme == .sips)
        #expect(uri.user == "101")
        #expect(uri.hasPassword)
        #expect(uri.headers == "X=1")
        #expect(uri.description == "sips:101:***@pbx:5061;transport=tls")
        #expect(!"\(uri)".contains("Pr1ntMe-Not"))
        // An empty password is no password.
        #expect(SIPURI(parsing: "sip:101:@pbx")?.hasPassword == false)
    }

    @Test func theDescriptionBracketsIPv6() throws {
        #expect(try #require(SIPURI(parsing: "<sip:door@[2001:db8::1]:5060>")).description == "sip:door@[2001:db8::1]:5060")
    }

    @Test(arguments: [
        ("\"Door\" <sip:1@h>;tag=x", "sip:1@h"),
        ("\"a<b\" <sip:1@h>", "sip:1@h"),
        ("\"a\\\"<b\" <sip:1@h>", "sip:1@h"),
        ("sip:1@h;tag=x", "sip:1@h;tag=x"),
        ("<sip:1@h", "sip:1@h"),
    ])
    func addressSpecs(text: String, spec: String) {
        #expect(SIPURI.addressSpec(in: text) == spec[...])
    }

    /// The same rules in the places that used to parse for themselves.
    @Test func everyUserAgrees() throws {
        #expect(CallerMatch.ip("2001:db8::1").matches(uri: "\"x\" <sip:1@[2001:db8::1]:5060>;tag=1", ip: nil))
        #expect(CallerMatch.ip("10.0.0.5").matches(uri: "SIP:1@10.0.0.5", ip: nil))
        #expect(!CallerMatch.ip("10.0.0.5").matches(uri: "sip:1@10.0.0.6", ip: nil))
        #expect(Redaction.uri("SIP:101:secret@pbx;transport=tcp") == "SIP:101:***@pbx;transport=tcp")
        #expect(!Redaction.hasPassword("sip:101@pbx;x=a:b"))
        let account = SIPAccount(identity: "sip:101@pbx.example.org", proxy: "sip:[2001:db8::5]:5070;transport=TCP")
        let registrar = try #require(RegistrarAddress(account: account))
        #expect(registrar.host == "2001:db8::5" && registrar.port == 5070 && registrar.transport == .tcp)
    }
}
