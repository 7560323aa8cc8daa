import Foundation
@testable import IntercomBase
import IntercomTestSupport
import Testing

/// The journal's copy of an operator's event log: stored once per operator and uuid, read back
/// with `operator` and `event` in its JSON, filtered, and migrated into a journal that predates it.
@Suite struct JournalOperatorEventTests {
    static func entry(_ uuid: String, operator name: String = "home", event: String = "opened_by_app",
                      time: Date = Date(timeIntervalSince1970: 1_764_573_239)) -> JournalEntry {
        .operatorEvent(operator: name, event: event, eventText: "opened by app", uuid: uuid, time: time,
                       door: "Entrance 1", who: "79123456781", flat: "7", address: "Test Street, 1, кв. 12",
                       pictureURL: "https://api.example/mobile/address/plogCamshot/\(uuid)",
                       detail: .object([("phone", .string("79123456781"))]))
    }

    @Test func anEntryIsStoredOncePerOperatorAndUUID() throws {
        let directory = try TestDirectory(prefix: "journal-operator")
        let journal = try Journal(directory: directory.path + "/journal")
        let row = try journal.recordOperatorEvent(Self.entry("a1"))
        #expect(row != nil)
        #expect(try journal.recordOperatorEvent(Self.entry("a1")) == nil)
        // The same uuid from another operator is another entry.
        #expect(try journal.recordOperatorEvent(Self.entry("a1", operator: "dacha")) != nil)
        let entries = try journal.entries()
        #expect(entries.count == 2)
        let first = try #require(entries.first { $0.operatorName == "home" })
        #expect(first.kind == .operatorEvent && first.event == "opened_by_app" && first.detail == "Entrance 1")
        #expect(first.placeText == "home: Entrance 1" && first.outcomeText == "opened by app" && first.subjectText == "79123456781")
        let json = first.json
        #expect(json["kind"]?.stringValue == "operator_event")
        #expect(json["operator"]?.stringValue == "home" && json["event"]?.stringValue == "opened_by_app")
        #expect(json["picture"]?.stringValue?.hasSuffix("/plogCamshot/a1") == true)
        #expect(json["detail"]?["phone"]?.stringValue == "79123456781")

        let path = try journal.saveOperatorPreview(Data([0xFF, 0xD8, 0xFF, 0xD9]), row: try #require(row), at: first.time)
        #expect(try journal.entries(JournalQuery(operatorName: "home")).map(\.picture) == [path])
        #expect(try journal.entries(JournalQuery(operatorEvents: false)).isEmpty)
        #expect(try journal.entries(JournalQuery(panel: "entrance")).isEmpty)
    }

    /// The camera that saw the entry and its entrance (issue 42) are kept in their own columns and read back.
    @Test func theEntrysCameraAndEntranceAreKept() throws {
        let directory = try TestDirectory(prefix: "journal-operator")
        let journal = try Journal(directory: directory.path + "/journal")
        var entry = Self.entry("a1")
        entry.cameraId = "102"
        entry.entranceId = "102"
        try journal.recordOperatorEvent(entry)
        try journal.recordOperatorEvent(Self.entry("a2"))
        let kept = try journal.entries()
        #expect(kept.map(\.cameraId) == ["102", nil] && kept.map(\.entranceId) == ["102", nil])
        #expect(kept.first?.json["camera"] == .string("home:cam:102") && kept.last?.json["camera"] == .null)
    }

    @Test func missedOperatorCallsCountAsMissed() throws {
        let directory = try TestDirectory(prefix: "journal-operator")
        let journal = try Journal(directory: directory.path + "/journal")
        try journal.recordOperatorEvent(Self.entry("a1"))
        try journal.recordOperatorEvent(Self.entry("a2", event: "call_missed"))
        #expect(try journal.entries(JournalQuery(missedOnly: true)).map(\.uuid) == ["a2"])
    }

    @Test func syncTimesAreKeptPerOperator() throws {
        let directory = try TestDirectory(prefix: "journal-operator")
        let journal = try Journal(directory: directory.path + "/journal")
        try journal.operatorSynced("home", at: Date(timeIntervalSince1970: 100))
        try journal.operatorSynced("home", at: Date(timeIntervalSince1970: 200))
        #expect(try journal.operatorSyncTimes() == ["home": Date(timeIntervalSince1970: 200)])
    }

    /// A journal written before operator entries existed gains their columns and keeps its rows.
    @Test func anOlderJournalIsMigrated() throws {
        let directory = try TestDirectory(prefix: "journal-operator")
        let path = directory.path + "/journal"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        do {
            let db = try SQLiteDatabase(path: path + "/" + JournalLocation.databaseName, create: true)
            try db.run("CREATE TABLE entries (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, time REAL NOT NULL, panel TEXT, call TEXT, caller TEXT, ended REAL, outcome TEXT, duration_s REAL, answered_by TEXT, detail TEXT, method TEXT, ok INTEGER, error TEXT, first_picture TEXT, answer_picture TEXT)")
            try db.run("INSERT INTO entries(kind, time, panel, detail, method, ok) VALUES ('door', 1, 'entrance', 'main', 'http', 1)")
        }
        let journal = try Journal(directory: path)
        #expect(try journal.entries().map(\.kind) == [.door])
        try journal.recordOperatorEvent(Self.entry("a1"))
        #expect(try journal.recordOperatorEvent(Self.entry("a1")) == nil)
        #expect(try journal.entries().map(\.kind) == [.door, .operatorEvent])
    }
}
