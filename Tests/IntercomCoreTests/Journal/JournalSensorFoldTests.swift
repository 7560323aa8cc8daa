import Foundation
import IntercomCore
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport
import IntercomBase

/// A panel's door sensor echoes every opening (relay on, then off): the journal keeps one row
/// per opening with the sensor's changes on it, not an opening plus alarm rows (issue 25).
@Suite(.removesTestFolders) struct JournalSensorFoldTests {
    static func recorder() throws -> (JournalRecorder, TestDirectory) {
        let directory = try TestDirectory(prefix: "intercom-sensor-fold")
        let journal = try Journal(directory: directory.path)
        return (JournalRecorder(journal: journal, pictures: JournalRecorderStateTests.FixedPictures(), logger: .silent,
                                answerVideoWait: .milliseconds(50)), directory)
    }

    static func opened(_ panel: String, at time: Date, ok: Bool = true) -> IntercomEvent {
        IntercomEvent(.doorOpened(panel: panel, call: nil, door: "main", method: "http", by: .key, ok: ok,
                                  error: ok ? nil : "refused"), time: time)
    }

    static func sensor(_ panel: String, _ state: String, at time: Date, kind: String = "door") -> IntercomEvent {
        IntercomEvent(.panelEvent(panel: panel, kind: kind, state: state), time: time)
    }

    @Test func twoOpeningsWithTheirSensorAreTwoRows() async throws {
        let (recorder, directory) = try Self.recorder()
        defer { withExtendedLifetime(directory) {} }
        let t = Date(timeIntervalSince1970: 1_800_000_000)
        for start in [t, t.addingTimeInterval(60)] {
            await recorder.record(Self.opened("porch", at: start))
            // Each opening's relay on/off, twice (an opening by HTTP and DTMF at once energises it twice).
            for (offset, state) in [(0.2, "on"), (1.2, "off"), (1.5, "on"), (2.5, "off")] {
                await recorder.record(Self.sensor("porch", state, at: start.addingTimeInterval(offset)))
            }
        }
        let entries = try recorder.journal.entries()
        #expect(entries.count == 2, "\(entries.map(\.outcomeText))")
        #expect(entries.allSatisfy { $0.kind == .door && $0.sensor == ["on", "off", "on", "off"] })
        #expect(entries.first?.outcomeText == "opened by http — key, sensor on/off/on/off")
        guard case .array(let states)? = entries.first?.json["sensor"] else {
            Issue.record("no sensor in \(String(describing: entries.first?.json.encoded))")
            return
        }
        #expect(states == [.string("on"), .string("off"), .string("on"), .string("off")])
    }

    /// The alarm stream's line can outrun the HTTP answer that reports the opening.
    @Test func sensorJustBeforeTheOpeningFoldsAndItsOffFollows() async throws {
        let (recorder, directory) = try Self.recorder()
        defer { withExtendedLifetime(directory) {} }
        let t = Date(timeIntervalSince1970: 1_800_000_000)
        await recorder.record(Self.sensor("porch", "on", at: t))
        await recorder.record(Self.opened("porch", at: t.addingTimeInterval(0.05)))
        // A panel that holds the door for 30 s: the off still belongs to the opening.
        await recorder.record(Self.sensor("porch", "off", at: t.addingTimeInterval(30)))
        let entries = try recorder.journal.entries()
        #expect(entries.count == 1 && entries.first?.sensor == ["on", "off"], "\(entries)")
    }

    @Test func unrelatedChangesStayTheirOwnEntries() async throws {
        let (recorder, directory) = try Self.recorder()
        defer { withExtendedLifetime(directory) {} }
        let t = Date(timeIntervalSince1970: 1_800_000_000)
        await recorder.record(Self.opened("porch", at: t))
        // Another panel's sensor, a ding, and the porch's own door long after: none is the opening's echo.
        await recorder.record(Self.sensor("gate", "on", at: t.addingTimeInterval(0.5)))
        await recorder.record(Self.sensor("porch", "on", at: t.addingTimeInterval(0.6), kind: "ding"))
        await recorder.record(Self.sensor("porch", "on", at: t.addingTimeInterval(DoorSensorFold.after + 5)))
        await recorder.record(Self.sensor("porch", "off", at: t.addingTimeInterval(DoorSensorFold.after + 6)))
        // A failed opening takes nothing.
        await recorder.record(Self.opened("gate", at: t.addingTimeInterval(100), ok: false))
        await recorder.record(Self.sensor("gate", "on", at: t.addingTimeInterval(100.5)))
        let entries = try recorder.journal.entries()
        #expect(entries.map(\.kind) == [.door, .panelEvent, .panelEvent, .panelEvent, .panelEvent, .door, .panelEvent],
                "\(entries.map { "\($0.kind) \($0.outcomeText)" })")
        #expect(entries.allSatisfy { $0.sensor.isEmpty })
        // The JSON of an opening without sensor changes is as before: no "sensor" field.
        #expect(entries.first?.json["sensor"] == nil)
    }
}
