import IntercomBase
import Testing

/// One reader of URL hosts and ports: panels' and operators' URLs, MQTT brokers, `setup` and the
/// simulators' options all take theirs from `URLAddress`.
@Suite struct URLAddressTests {
    @Test func aPlainURLHasEveryPart() throws {
        let address = try #require(URLAddress(parsing: "HTTPS://panel.example:8443/cgi-bin/x?y=1#z"))
        #expect(address.scheme == "https")
        #expect(address.host == "panel.example")
        #expect(address.port == 8443)
        #expect(address.path == "/cgi-bin/x")
        #expect(!address.hasCredentials)
    }

    @Test func anIPv6LiteralLosesItsBracketsAndKeepsItsPort() throws {
        let address = try #require(URLAddress(parsing: "mqtts://[fd00::5]:8883"))
        #expect(address.host == "fd00::5")
        #expect(address.port == 8883)
        #expect(URLAddress(parsing: "http://[fd00::5") == nil, "an unclosed literal is no host")
        #expect(URLAddress(parsing: "http://[fd00::5]x") == nil, "only :PORT may follow the literal")
    }

    @Test func credentialsAreNotedAndNeverTakenForTheHost() throws {
        let address = try #require(URLAddress(parsing: "http://admin:pw@10.0.0.5/"))
        #expect(address.hasCredentials)
        #expect(address.host == "10.0.0.5")
        #expect(address.port == nil)
        #expect(address.path == "/")
        #expect(try #require(URLAddress(parsing: "http://h/a?b=c@d")).hasCredentials == false, "an @ past the host is no user")
    }

    @Test func aBadPortIsReadButNotValid() throws {
        for text in ["http://h:0", "http://h:65536", "http://h:8o", "http://h:", "http://h:+80"] {
            let address = try #require(URLAddress(parsing: text), "\(text)")
            #expect(address.host == "h")
            #expect(address.port == nil && !address.portIsValid, "\(text)")
        }
        #expect(try #require(URLAddress(parsing: "http://h")).portIsValid)
    }

    @Test func textThatIsNoURLIsRefused() {
        for text in ["panel.example", "http://", "http:///path", "http://user@", "http://a b", "http://h:80 "] {
            #expect(URLAddress(parsing: text) == nil, "\(text)")
        }
    }
}
