import Testing
import IntercomPanel
import IntercomImaging
import IntercomHTTP
import IntercomTestSupport

@Suite struct PanelAlarmLineTests {
    @Test func parsesTheThreeKinds() {
        #expect(PanelAlarm(line: "2019-07-28;15:51:52;SensorAlarm;1;0") == PanelAlarm(kind: .ding, active: true, channel: 0, panelTime: "2019-07-28 15:51:52"))
        #expect(PanelAlarm(line: "2019-07-28;15:51:53;SensorAlarm;0;0")?.active == false)
        #expect(PanelAlarm(line: "2019-07-28;15:51:53;MotionDetection;1;0")?.kind == .motion)
        #expect(PanelAlarm(line: "2019-07-28;15:51:53;SensorOutAlarm;1;0\r")?.kind == .door)
    }

    @Test func ignoresBlankUnknownAndMalformed() {
        #expect(PanelAlarm(line: "") == nil)
        #expect(PanelAlarm(line: "   ") == nil)
        #expect(PanelAlarm(line: "2019-07-28;15:51:53;TamperAlarm;1;0") == nil)
        #expect(PanelAlarm(line: "2019-07-28;15:51:53;SensorAlarm;yes;0") == nil)
        #expect(PanelAlarm(line: "SensorAlarm;1") == nil)
        #expect(PanelAlarm(line: "<html>") == nil)
    }

    @Test func missingChannelDefaultsToZero() {
        #expect(PanelAlarm(line: "2019-07-28;15:51:53;SensorAlarm;1")?.channel == 0)
    }
}
