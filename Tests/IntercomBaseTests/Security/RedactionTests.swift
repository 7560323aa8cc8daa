import Foundation
import Testing
import IntercomBase
import IntercomHTTP
import IntercomTestSupport

/// The types that hold passwords print without them, however they are printed.
@Suite struct RedactionTests {
    static let secret = "Pr1ntMe-Not"

    static func printed(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    @Test func configsPrintWithoutPasswords() throws {
        let loaded = try ConfigLoader.parse(text: """
            [sip]
            account = sip:101@pbx.example.org
            password = \(Self.secret)
            [panel door]
            url = http://192.168.1.50
            password = \(Self.secret)
            [mqtt]
            url = mqtt://127.0.0.1
            user = intercom
            password = \(Self.secret)
            """)
        let panel = try #require(loaded.config.panels.first)
        let account = try #require(loaded.config.sip.account)
        let http = HTTPClientConfiguration(user: "admin", password: Self.secret)
        let mqtt = try #require(loaded.config.mqtt)
        #expect(mqtt.password == Self.secret)
        for value in [loaded.config as Any, panel, account, http, [panel], loaded, mqtt] {
            for text in Self.printed(value) {
                #expect(!text.contains(Self.secret), "\(type(of: value)) printed its password")
            }
        }
        #expect(String(describing: panel).contains("password: ***"))
    }

    @Test(arguments: [
        ("sip:101:\(secret)@pbx", "sip:101:***@pbx"),
        ("sips:101:\(secret)@pbx:5061;transport=tls", "sips:101:***@pbx:5061;transport=tls"),
        ("http://admin:\(secret)@10.0.0.1/cgi-bin", "http://admin:***@10.0.0.1/cgi-bin"),
        ("101:\(secret)@pbx", "101:***@pbx"),
        ("sip:101@pbx:5060", "sip:101@pbx:5060"),
        ("sip:pbx.example.org:5060;transport=tcp", "sip:pbx.example.org:5060;transport=tcp"),
    ])
    func urisAreMasked(input: String, shown: String) {
        #expect(Redaction.uri(input) == shown)
        #expect(Redaction.hasPassword(input) == input.contains(Self.secret))
    }
}
