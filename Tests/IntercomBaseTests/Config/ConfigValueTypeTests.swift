import Foundation
import Testing
@testable import IntercomBase
@testable import IntercomHTTP
import IntercomTestSupport

@Suite struct ConfigValueTypeTests {
    @Test(arguments: [
        ("udp:127.0.0.1:5060", SIPTransport.udp, "127.0.0.1", 5060),
        ("tcp:[::1]:5070", .tcp, "::1", 5070),
        ("tls:0.0.0.0:5061", .tls, "0.0.0.0", 5061),
        ("UDP:localhost:0", .udp, "localhost", 0),
        ("tcp:[fe80::1:2]:65535", .tcp, "fe80::1:2", 65535),
    ])
    func listenAddressRoundTrip(text: String, transport: SIPTransport, host: String, port: Int) throws {
        let address = try ListenAddress(parsing: text)
        #expect(address == ListenAddress(transport: transport, host: host, port: port))
        #expect(address.description == text.replacingOccurrences(of: "UDP", with: "udp"))
    }

    @Test(arguments: ["127.0.0.1:5060", "udp:127.0.0.1", "udp:127.0.0.1:65536", "udp::5060",
                      "udp:[]:5060", "udp:[::1]", "udp:::1:5060", "sctp:1.2.3.4:5", "udp:1.2.3.4:x",
                      "udp:1.2.3.4:-1", "udp:1.2.3.4:",
                      // Found by the config fuzz target: accepted, but unreadable from their own spelling
                      // (`udp:[:1`) and unbindable.
                      "udp:[[]:1", "udp:[a:b]:1", "udp:[1.2.3.4]:1", "udp:a]:1", "udp:a b:1"])
    func listenAddressRejects(text: String) {
        #expect(throws: ConfigValueError.self) { try ListenAddress(parsing: text) }
    }

    @Test func callerMatchParsing() throws {
        #expect(try CallerMatch(parsing: "sip:100001@") == .uriPrefix("sip:100001@"))
        #expect(try CallerMatch(parsing: "SIPS:door@") == .uriPrefix("SIPS:door@"))
        #expect(try CallerMatch(parsing: "192.168.1.50") == .ip("192.168.1.50"))
        #expect(try CallerMatch(parsing: "::1") == .ip("::1"))
        #expect(try CallerMatch(parsing: "[fd00::2]") == .ip("fd00::2"))
        #expect(throws: ConfigValueError.self) { try CallerMatch(parsing: "door.local") }
        #expect(throws: ConfigValueError.self) { try CallerMatch(parsing: "1.2.3") }
    }

    @Test func callerMatchMatching() {
        let prefix = CallerMatch.uriPrefix("sip:100001@")
        #expect(prefix.matches(uri: "sip:100001@192.168.1.50", ip: nil))
        #expect(prefix.matches(uri: "SIP:100001@192.168.1.50:5060", ip: "10.0.0.1"))
        #expect(prefix.matches(uri: "\"Entrance\" <sip:100001@192.168.1.50>;tag=1", ip: nil))
        #expect(!prefix.matches(uri: "sip:100002@192.168.1.50", ip: nil))
        #expect(!prefix.matches(uri: "sips:100001@192.168.1.50", ip: nil))

        let ip = CallerMatch.ip("192.168.1.50")
        #expect(ip.matches(uri: "sip:x@elsewhere", ip: "192.168.1.50"))
        #expect(!ip.matches(uri: "sip:x@192.168.1.50", ip: "192.168.1.51"))
        // No transport address known: fall back to the URI host.
        #expect(ip.matches(uri: "sip:100001@192.168.1.50:5060;transport=udp", ip: nil))
        #expect(!ip.matches(uri: "sip:100001@door.local", ip: nil))

        let v6 = CallerMatch.ip("fd00::5")
        #expect(v6.matches(uri: "sip:a@b", ip: "fd00:0:0:0:0:0:0:5"))
        #expect(v6.matches(uri: "sip:a@[fd00::5]:5060", ip: nil))
    }

    @Test func panelMatchesAnyRule() {
        let panel = PanelConfig(name: "p", url: "http://10.0.0.1", match: [.uriPrefix("sip:7@"), .ip("10.0.0.2")])
        #expect(panel.matches(uri: "sip:7@x", ip: nil))
        #expect(panel.matches(uri: "sip:8@x", ip: "10.0.0.2"))
        #expect(!panel.matches(uri: "sip:8@x", ip: "10.0.0.1"))
        #expect(PanelConfig(name: "q", url: "http://10.0.0.1").matches(uri: "sip:1@h", ip: "10.0.0.1"))
    }

    @Test func guestUntilRFC3339() throws {
        let utc = TimeZone(identifier: "UTC") ?? .current
        #expect(try GuestTimeParser.parse("2026-11-29T18:00:00+03:00", timeZone: utc)
                == Date(timeIntervalSince1970: 1_795_964_400))
        #expect(try GuestTimeParser.parse("2026-11-29T18:00:00Z", timeZone: utc)
                == Date(timeIntervalSince1970: 1_795_975_200))
        #expect(try GuestTimeParser.parse("2026-11-29t18:00:00.5z", timeZone: utc)
                == Date(timeIntervalSince1970: 1_795_975_200.5))
        #expect(try GuestTimeParser.parse("2026-11-29T16:00:00-02:00", timeZone: utc)
                == Date(timeIntervalSince1970: 1_795_975_200))
    }

    @Test func guestUntilLocalUsesGivenTimeZone() throws {
        let moscow = try #require(TimeZone(identifier: "Europe/Moscow"))
        #expect(try GuestTimeParser.parse("2026-06-01 09:30", timeZone: moscow)
                == Date(timeIntervalSince1970: 1_780_295_400))
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(try GuestTimeParser.parse("2026-06-01 09:30", timeZone: utc)
                == Date(timeIntervalSince1970: 1_780_295_400 + 3 * 3600))
        let config = try parseConfig("[panel p]\nurl = http://1.2.3.4\nguest_until = 2026-06-01 09:30", timeZone: moscow)
        #expect(config.config.panels[0].guestUntil == Date(timeIntervalSince1970: 1_780_295_400))
        #expect(config.config.panels[0].isGuestModeActive(at: Date(timeIntervalSince1970: 1_780_295_399)))
        #expect(!config.config.panels[0].isGuestModeActive(at: Date(timeIntervalSince1970: 1_780_295_400)))
    }

    @Test(arguments: ["2026-11-29", "2026-11-29T18:00", "2026-11-29 18:00:00+03:00x", "2026-13-01 10:00",
                      "2026-02-29 10:00", "2026-11-29 24:00", "2026-11-29T18:00:00", "2026-11-29T18:00:00+3:00",
                      "26-11-29 18:00", "2026-11-29 18:60", "2026-02-30T10:00:00Z", "2026-04-31T10:00:00+03:00",
                      "2026-11-29T24:00:00Z"])
    func guestUntilRejects(text: String) {
        #expect(throws: ConfigValueError.self) { try GuestTimeParser.parse(text, timeZone: .current) }
    }

    @Test func pathExpansion() throws {
        let expander = PathExpander(environment: ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/5"], uid: 5)
        #expect(try expander.expand("~/a") == "/home/u/a")
        #expect(try expander.expand("$HOME/a") == "/home/u/a")
        #expect(try expander.expand("$XDG_RUNTIME_DIR/x.sock") == "/run/user/5/x.sock")
        #expect(try expander.expand("/abs/$OTHER") == "/abs/$OTHER")
        let bare = PathExpander(environment: [:], uid: 5)
        #expect(bare.runtimeDirectory == "/tmp/intercom-5")
        #expect(try bare.expand("$XDG_RUNTIME_DIR/intercom/control.sock") == "/tmp/intercom-5/control.sock")
        #expect(throws: ConfigValueError.self) { try bare.expand("$XDG_RUNTIME_DIR/other.sock") }
        #expect(throws: ConfigValueError.self) { try bare.expand("~/x") }
        #expect(throws: ConfigValueError.self) { try expander.expand("~bob/x") }
    }
}
