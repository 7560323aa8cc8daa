import Foundation
import IntercomBase
import Testing
import IntercomTestSupport

/// `[panel] rtsp` and `rtsp_sub`: the camera's streams, derived from `url` unless set.
@Suite struct ConfigPanelRTSPTests {
    @Test func derivedFromTheURLsHost() throws {
        let panel = try #require(try parseConfig("[panel p]\nurl = http://10.1.2.3:8080").config.panels.first)
        #expect(panel.rtspURL == "rtsp://10.1.2.3:554/av0_0")
        #expect(panel.rtspSubURL == "rtsp://10.1.2.3:554/av0_1")
    }

    @Test func anIPv6HostIsBracketed() throws {
        let panel = try #require(try parseConfig("[panel p]\nurl = http://[fd00::5]").config.panels.first)
        #expect(panel.rtspURL == "rtsp://[fd00::5]:554/av0_0")
    }

    @Test func setExplicitlyAndTheSubFollows() throws {
        let panel = try #require(try parseConfig(
            "[panel p]\nurl = http://10.1.2.3\nrtsp = rtsp://10.1.2.3:47456/av0_0").config.panels.first)
        #expect(panel.rtspURL == "rtsp://10.1.2.3:47456/av0_0")
        #expect(panel.rtspSubURL == "rtsp://10.1.2.3:47456/av0_1")
        let other = try #require(try parseConfig(
            "[panel p]\nurl = http://10.1.2.3\nrtsp = rtsp://cam/live\nrtsp_sub = off").config.panels.first)
        #expect(other.rtspURL == "rtsp://cam/live")
        #expect(other.rtspSubURL == nil)
    }

    @Test func offKeepsToSnapshots() throws {
        let panel = try #require(try parseConfig("[panel p]\nurl = http://10.1.2.3\nrtsp = off").config.panels.first)
        #expect(panel.rtspURL == nil && panel.rtspSubURL == nil)
    }

    @Test(arguments: [("http://10.1.2.3/av0_0", "is not off or an rtsp:// URL"),
                      ("rtsp://admin:pw@10.1.2.3/av0_0", "must not contain a user or password"),
                      ("rtsp:///av0_0", "has no host")])
    func aBadValueIsOneClearLine(text: String, message: String) throws {
        let error = try #require(configError("[panel front]\nurl = http://10.1.2.3\nrtsp = \(text)"))
        #expect(error.line == 3 && error.key == "rtsp", "\(error)")
        #expect(error.description.contains(message), "\(error)")
        #expect(!error.description.contains("pw"), "no password echoed: \(error)")
        #expect(!error.description.contains("\n"))
    }
}
