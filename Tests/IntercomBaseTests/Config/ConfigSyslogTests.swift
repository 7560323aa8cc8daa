import Foundation
import IntercomBase
import Testing
import IntercomTestSupport

/// `[syslog] listen` and `[panel] syslog`: which panels' syslog is heard, and where.
@Suite struct ConfigSyslogTests {
    @Test func noSyslogByDefault() throws {
        let config = try parseConfig("[panel a]\nurl = http://10.0.0.2").config
        #expect(config.syslog == nil && config.syslogPanels.isEmpty && config.syslogListen == nil)
    }

    @Test func theSectionHearsEveryPanelButOnesThatSayOff() throws {
        let config = try parseConfig("""
            [panel a]
            url = http://10.0.0.2
            [panel b]
            url = http://10.0.0.3
            syslog = off
            [syslog]
            listen = udp:10.0.0.1:5600
            """).config
        #expect(config.syslogPanels.map(\.name) == ["a"])
        #expect(config.syslogListen == ListenAddress(transport: .udp, host: "10.0.0.1", port: 5600))
    }

    @Test func aPanelAloneListensOnTheDefault() throws {
        let config = try parseConfig("[panel a]\nurl = http://10.0.0.2\n[panel b]\nurl = http://10.0.0.3\nsyslog = on").config
        #expect(config.syslogPanels.map(\.name) == ["b"])
        #expect(config.syslogListen == SyslogSettings.defaultListen)
    }

    @Test func onlyUDPAndAnAddress() {
        let tcp = configError("[syslog]\nlisten = tcp:0.0.0.0:5514")
        #expect(tcp?.description.contains("the panels send syslog over UDP only") == true, "\(String(describing: tcp))")
        #expect(tcp?.exitCode == 65)
        let bare = configError("[syslog]\nlisten = 5514")
        #expect(bare?.description.contains("[syslog]") == true, "\(String(describing: bare))")
        let name = configError("[syslog]\nlisten = udp:localhost:5514")
        #expect(name?.description.contains("is not an IP address") == true, "\(String(describing: name))")
        let word = configError("[panel a]\nurl = http://10.0.0.2\nsyslog = maybe")
        #expect(word?.description.contains("syslog") == true, "\(String(describing: word))")
    }
}
