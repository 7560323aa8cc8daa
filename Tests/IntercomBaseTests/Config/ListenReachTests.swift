import Testing
@testable import IntercomBase

/// `intercom doctor`'s warning for a client that listens where no panel can reach it.
@Suite("listen reach: loopback-only listening with panels elsewhere")
struct ListenReachTests {
    static func config(_ text: String) throws -> IntercomConfig {
        try ConfigLoader.parse(text: text).config
    }

    @Test("loopback listen with a panel on the network: one line naming the panel and the fix")
    func warnsForAPanelElsewhere() throws {
        let config = try Self.config("""
            [sip]
            listen = udp:127.0.0.1:5060
            [panel porch]
            url = http://192.168.1.50
            user = admin
            [panel local]
            url = http://127.0.0.1:8080
            user = admin
            """)
        let warning = try #require(ListenReach.loopbackOnlyWarning(config))
        #expect(warning.contains("porch (192.168.1.50)") && !warning.contains("local"), "\(warning)")
        #expect(warning.contains("listen = udp:0.0.0.0:5060"), "\(warning)")
    }

    @Test("no warning: listening on all addresses, only loopback panels, or a panel's source on loopback")
    func quietWhenReachable() throws {
        #expect(ListenReach.loopbackOnlyWarning(try Self.config("""
            [sip]
            listen = udp:0.0.0.0:5060
            [panel porch]
            url = http://192.168.1.50
            user = admin
            """)) == nil)
        #expect(ListenReach.loopbackOnlyWarning(try Self.config("""
            [sip]
            listen = udp:127.0.0.1:5070, tcp:[::1]:5070
            [panel sim]
            url = http://localhost:8080
            user = admin
            source = 127.0.0.2
            """)) == nil)
        #expect(ListenReach.loopbackOnlyWarning(try Self.config("[sip]\nlisten = udp:127.0.0.1:5060\n")) == nil)
    }

    @Test("what counts as loopback")
    func loopbackAddresses() {
        for host in ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1", "localhost"] {
            #expect(ListenReach.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "192.168.1.5", "::", "fe80::1", "panel.example.org"] {
            #expect(!ListenReach.isLoopback(host), "\(host)")
        }
    }

    @Test("roff: code bold, emphasis italic, hyphens and non-ASCII escaped, a leading dot guarded")
    func roffText() {
        #expect(Roff.text("use `--config` or *yes*") == "use \\fB\\-\\-config\\fR or \\fIyes\\fR")
        #expect(Roff.text(".hidden — dash") == "\\&.hidden \\[u2014] dash")
        #expect(Roff.text("digits 0-9, * and #") == "digits 0\\-9, * and #")
    }
}
