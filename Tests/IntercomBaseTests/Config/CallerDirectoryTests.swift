import IntercomBase
import Testing
import IntercomTestSupport

/// Who is calling: the packets' source decides, `match` only picks among the panels there.
@Suite struct CallerDirectoryTests {
    let entrance = PanelConfig(name: "entrance", url: "http://192.168.1.50", match: [.uriPrefix("sip:100001@")])
    let gate = PanelConfig(name: "gate", url: "http://192.168.1.51")
    let back = PanelConfig(name: "back", url: "http://door.local", source: ["10.0.0.7", "::ffff:10.0.0.8"])

    func directory(registrar: [String] = [], reject: Bool = true) -> CallerDirectory {
        CallerDirectory(panels: [entrance, gate, back], registrarHosts: registrar, rejectStrangers: reject) { host in
            host == "pbx.example" ? ["10.1.1.1"] : []
        }
    }

    @Test func aPanelIsKnownByWhereItsPacketsComeFrom() {
        let d = directory()
        #expect(d.identify(from: "<sip:100001@192.168.1.50>;tag=1", contactHost: "192.168.1.50", source: "192.168.1.50")
                == .panel("entrance", route: .direct))
        #expect(d.identify(from: "<sip:anything@x>", contactHost: nil, source: "192.168.1.51") == .panel("gate", route: .direct))
        // `source` replaces the url host; IPv4-mapped addresses are the IPv4 address.
        #expect(d.identify(from: "<sip:1@x>", contactHost: nil, source: "10.0.0.8") == .panel("back", route: .direct))
        #expect(d.identify(from: "<sip:1@x>", contactHost: nil, source: "::ffff:10.0.0.7") == .panel("back", route: .direct))
    }

    @Test func headersAloneNeverMakeAPanel() {
        let d = directory()
        // The spoof of the issue: From and Contact name the panel, the packets come from elsewhere.
        #expect(d.identify(from: "<sip:100001@192.168.1.50>;tag=1", contactHost: "192.168.1.50", source: "127.0.0.2")
                == .impostor(panel: "entrance", expected: ["192.168.1.50"]))
        #expect(d.identify(from: "<sip:7@192.168.1.51>", contactHost: "203.0.113.9", source: "203.0.113.9")
                == .impostor(panel: "gate", expected: ["192.168.1.51"]))
        #expect(d.identify(from: "<sip:7@x>", contactHost: "10.0.0.7", source: nil) == .impostor(panel: "back", expected: ["10.0.0.7", "::ffff:10.0.0.8"]))
        #expect(d.identify(from: "<sip:scanner@203.0.113.5>", contactHost: "203.0.113.5", source: "203.0.113.5") == .stranger)
        // The panel's own address with a From its `match` does not take: another device there, not an impostor.
        #expect(d.identify(from: "<sip:999@192.168.1.50>", contactHost: "192.168.1.50", source: "192.168.1.50") == .stranger)
        #expect(d.refuses(.impostor(panel: "gate", expected: [])))
        #expect(!directory(reject: false).refuses(.stranger) && d.refuses(.stranger))
    }

    @Test func theRegistrarIsTrustedAndMatchNamesThePanel() {
        let d = directory(registrar: ["pbx.example"])
        #expect(d.identify(from: "<sip:100001@pbx.example>;tag=1", contactHost: "10.9.9.9", source: "10.1.1.1")
                == .panel("entrance", route: .registrar))
        // A panel without `match` cannot be told apart among the registrar's calls.
        #expect(d.identify(from: "<sip:555@pbx.example>", contactHost: nil, source: "10.1.1.1") == .stranger)
        #expect(directory().identify(from: "<sip:100001@pbx.example>", contactHost: nil, source: "10.1.1.1")
                == .impostor(panel: "entrance", expected: ["192.168.1.50"]))
    }

    @Test func unresolvableNamesAreReported() {
        let lost = PanelConfig(name: "lost", url: "http://nowhere.invalid")
        let d = CallerDirectory(panels: [lost], registrarHosts: [], rejectStrangers: true) { _ in [] }
        #expect(d.unreachable == ["lost"])
        #expect(d.identify(from: "<sip:1@nowhere.invalid>", contactHost: nil, source: "10.0.0.1") == .stranger)
    }

    /// With `[operator]` sections, a registrar call from `1` + 5 digits is an operator's panel (its
    /// domophone id); the same From from anywhere else, or without operators, is nobody we know.
    @Test func anOperatorsPanelComesThroughTheRegistrar() {
        let d = CallerDirectory(panels: [gate], registrarHosts: ["pbx.example"], rejectStrangers: true, operatorCalls: true) { host in
            host == "pbx.example" ? ["10.1.1.1"] : []
        }
        #expect(d.identify(from: "\"Entrance 1\" <sip:100001@pbx.example>;tag=9", contactHost: nil, source: "10.1.1.1")
                == .operatorPanel(domophoneId: "1"))
        #expect(d.identify(from: "<sip:112345@pbx.example>", contactHost: nil, source: "10.1.1.1") == .operatorPanel(domophoneId: "12345"))
        #expect(!d.refuses(.operatorPanel(domophoneId: "1")))
        // Not a panel's number: a flat (4…), a temporary app leg (2…), six digits not starting with 1, seven digits.
        for user in ["4000000001", "2000000001", "200001", "1000001", "10000a", "1"] {
            #expect(d.identify(from: "<sip:\(user)@pbx.example>", contactHost: nil, source: "10.1.1.1") == .stranger, "\(user)")
        }
        #expect(d.identify(from: "<sip:100001@pbx.example>", contactHost: nil, source: "203.0.113.5") == .stranger)
        #expect(directory(registrar: ["pbx.example"]).identify(from: "<sip:100002@pbx.example>", contactHost: nil, source: "10.1.1.1")
                == .stranger)
        #expect(CallerDirectory.operatorDomophone("sip:100001@h") == "1")
        #expect(CallerDirectory.operatorDomophone("sip:door@h") == nil)
    }
}
