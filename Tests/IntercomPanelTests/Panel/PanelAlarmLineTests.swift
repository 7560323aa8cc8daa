import Testing
import IntercomPanel
import IntercomImaging
import IntercomHTTP
import IntercomTestSupport

@Suite struct PanelAlarmLineTests {
    @Test func parsesTheThreeKinds() {
        #expect(PanelAlarm(line: "2019-07-28;15:51:52;SensorAlarm;1;0") == PanelAlarm(kind: .ding, active: true, numbers: [0], panelTime: "2019-07-28 15:51:52"))
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

    @Test func missingFifthFieldIsNoNumbers() {
        #expect(PanelAlarm(line: "2019-07-28;15:51:53;SensorAlarm;1")?.numbers == [])
    }

    /// The fifth field is a list of inputs/relays, not a channel folded to 0: relay 2 fired
    /// names the second door, and both relays name both doors.
    @Test func fifthFieldIsAListOfRelaysThatNamesTheDoors() {
        let both = PanelAlarm(line: "2024-03-01;08:00:00;SensorOutAlarm;1;1,2\n")
        #expect(both?.numbers == [1, 2])
        #expect(both?.doors == [.main, .alt])
        #expect(PanelAlarm(line: "2024-03-01;08:00:00;SensorOutAlarm;0;2")?.doors == [.alt])
        #expect(PanelAlarm(line: "2024-03-01;08:00:00;SensorOutAlarm;1;3")?.doors == [.light])
        // A button line's numbers are inputs, never doors.
        #expect(PanelAlarm(line: "2024-03-01;08:00:00;SensorAlarm;1;1")?.doors == [])
    }
}
