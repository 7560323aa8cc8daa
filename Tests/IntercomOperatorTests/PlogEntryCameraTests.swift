import Foundation
import IntercomBase
@testable import IntercomOperator
import Testing

/// An event-log entry names the camera that saw it (issue 42): plog.php writes `cameraId` and
/// `entranceId` from the event's domophone record and `objectType` always "0", so the camera comes
/// from `cameraId`, not from the object. The journal keeps both.
@Suite struct PlogEntryCameraTests {
    static let flat = OperatorFlat(flatId: "7", address: "Lenina 1", hasPlog: true)

    /// As plog.php writes a call from the second entrance of panel 1.
    static func entry(camera: JSONValue? = .integer(102), entrance: JSONValue? = .integer(102)) throws -> PlogEntry {
        var fields: [(String, JSONValue)] = [
            ("date", .string("2026-12-01 10:13:59")), ("uuid", .string("u1")), ("previewType", .integer(1)),
            ("objectId", .string("1")), ("objectType", .string("0")), ("objectMechanizma", .string("0")),
            ("mechanizmaDescription", .string("Entrance 1")), ("houseId", .integer(1)), ("event", .string("1")),
        ]
        if let entrance { fields.append(("entranceId", entrance)) }
        if let camera { fields.append(("cameraId", camera)) }
        return try #require(PlogEntry(json: .object(fields), timeZone: TimeZone(identifier: "UTC") ?? .current))
    }

    @Test func theCameraIsTheEntrysCameraIdNotTheObject() throws {
        let entry = try Self.entry()
        #expect(entry.cameraId == "102" && entry.entranceId == "102")
        #expect(entry.cameraID(operator: "home") == "home:cam:102")
        // objectType "0": the object is the panel, and stays the door's id.
        #expect(entry.doorID(operator: "home") == "home:1:0")
        let notice = OperatorLogNotice(entry: entry, operator: "home", picture: nil)
        #expect(notice.camera == "home:cam:102" && notice.door == "home:1:0")
    }

    @Test func theJournalEntryKeepsCameraAndEntrance() throws {
        let journal = try Self.entry().journalEntry(operator: "home", flat: Self.flat)
        #expect(journal.cameraId == "102" && journal.entranceId == "102")
        #expect(journal.eventDetail?["domophone"]?.stringValue == "1" && journal.eventDetail?["camera"] == nil)
        let json = journal.json
        #expect(json["camera"]?.stringValue == "home:cam:102" && json["entrance_id"]?.stringValue == "102", "\(json.encoded)")
        // The control socket's journal reply reads back the same.
        let back = try #require(JournalEntry(json: json))
        #expect(back.cameraId == "102" && back.entranceId == "102")
    }

    @Test func noCameraWhenTheServerNamesNone() throws {
        let entry = try Self.entry(camera: nil, entrance: nil)
        #expect(entry.cameraId == nil && entry.cameraID(operator: "home") == nil)
        #expect(entry.journalEntry(operator: "home", flat: Self.flat).json["camera"] == .null)
        // 0 is the server's "none" where a client sends it anyway.
        #expect(try Self.entry(camera: .string("0")).cameraId == nil)
    }
}
