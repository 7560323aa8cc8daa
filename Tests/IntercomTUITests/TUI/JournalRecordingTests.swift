import Foundation
import IntercomBase
@testable import IntercomTUI
import Testing

/// Enter in the journal (`l`): an operator entry plays its camera's recording of that moment
/// (`intercom watch TARGET --at TIME`, a few seconds before the entry), a call with a clip plays it
/// (`intercom log --play ID`); any other entry says in one line why there is nothing to play. The key
/// bar offers Enter only where it plays.
@Suite struct JournalRecordingTests {
    static let time = Date(timeIntervalSince1970: 1_800_000_000)

    static func operatorEntry(detail: JSONValue?) -> JournalEntry {
        var entry = JournalEntry.operatorEvent(operator: "home", event: "opened_by_key", eventText: "opened by key", uuid: "u1",
                                               time: time, door: "Entrance 1", who: "key 0A1B", flat: "7", address: "Lenina 1",
                                               pictureURL: nil, detail: detail)
        entry.id = 12
        return entry
    }

    @Test func aCameraEntryPlaysThatCameraFromJustBeforeIt() throws {
        let recording = JournalRecording.of(Self.operatorEntry(detail: .object([("camera", .string("5"))])))
        let from = Self.time.addingTimeInterval(-JournalRecording.leadIn)
        #expect(recording == .watch(target: "home:cam:5", from: from))
        let (name, arguments) = try #require(recording.command)
        #expect(name == "watch" && arguments.prefix(2) == ["home:cam:5", "--at"])
        #expect(arguments.count == 3 && RFC3339.date(arguments[2]) == from, "\(arguments)")
    }

    /// The operator names the camera that saw the entry (plog's `cameraId`, issue 42): that one plays,
    /// not the panel's first entrance's; with only the entrance named, its camera in the camera map.
    @Test func anEntryPlaysItsOwnCameraBeforeItsPanels() {
        var entry = Self.operatorEntry(detail: .object([("domophone", .string("1"))]))
        entry.cameraId = "102"
        entry.entranceId = "102"
        let from = Self.time.addingTimeInterval(-JournalRecording.leadIn)
        #expect(JournalRecording.of(entry) == .watch(target: "home:cam:102", from: from))
        entry.cameraId = nil
        #expect(JournalRecording.of(entry) == .watch(target: "home:entrance:102", from: from))
    }

    @Test func aPanelEntryPlaysItsPanelsCameraThroughADoorOfIt() {
        let recording = JournalRecording.of(Self.operatorEntry(detail: .object([("key", .string("0A1B")), ("domophone", .string("3"))])))
        #expect(recording == .watch(target: "home:3:0", from: Self.time.addingTimeInterval(-JournalRecording.leadIn)))
    }

    @Test func entriesWithoutARecordingSayWhyInOneLine() throws {
        guard case .unavailable(let why) = JournalRecording.of(Self.operatorEntry(detail: nil)) else {
            Issue.record("an entry naming no camera or panel cannot play")
            return
        }
        #expect(why.contains("no camera or panel") && !why.contains("\n"), "\(why)")
        let call = try MissedCallKeysTests.missed()
        guard case .unavailable(let panelWhy) = JournalRecording.of(call) else {
            Issue.record("a panel's call has no archive to play")
            return
        }
        #expect(panelWhy.contains("no clip of this call") && panelWhy.contains("record"), "\(panelWhy)")
    }

    @Test func aRecordedCallPlaysItsClip() throws {
        var call = try MissedCallKeysTests.missed()
        call.clip = "c1.mkv"
        let recording = JournalRecording.of(call)
        #expect(recording == .clip(entry: call.id))
        let (name, arguments) = try #require(recording.command)
        #expect(name == "log" && arguments == ["--play", String(call.id)])
        #expect(recording.title == "clip \(call.id)")
        var model = ScreenModel()
        model.journal = JournalBrowser(entries: [call])
        #expect(model.keyBar(kiosk: nil, directory: []).fit(200).contains("Enter recording"))
    }

    /// The list beside the picture is narrow (49 columns at 100, 39 at 80): a recorded call's line
    /// keeps its `[clip ID]`, which Enter plays, and shortens the text before it.
    @Test func theClipMarkStaysOnAShortenedLineAt100And80Columns() throws {
        var call = try MissedCallKeysTests.missed(handledBy: "key (concierge-desk-1)")
        call.clip = "c1.mkv"
        let mark = "[clip \(call.id)]"
        var model = ScreenModel()
        model.journal = JournalBrowser(entries: [call])
        #expect(JournalBrowser.line(call).hasSuffix(mark) && JournalBrowser.line(call).count > 60, "\(JournalBrowser.line(call))")
        for (cols, rows) in [(100, 30), (80, 24)] {
            let info = model.infoLines(now: Self.time, height: Layout.of(cols: cols, rows: rows).info.rows)
            let layout = Layout.of(cols: cols, rows: rows, infoNeed: ScreenModel.need(info))
            let line = try #require(info.first { $0.style == .selected })
            let shown = line.fitted(layout.info.cols - 1)
            #expect(shown.hasSuffix(" " + mark) && shown.count <= layout.info.cols - 1, "\(cols) columns: \(shown)")
            #expect(shown.contains("…") && shown.hasPrefix(String(JournalBrowser.line(call).prefix(11))),
                    "\(cols) columns: the text before the mark is what is shortened: \(shown)")
        }
        // An entry without a clip has no mark, and is shortened as before.
        let plain = try MissedCallKeysTests.missed(handledBy: "key (concierge-desk-1)")
        let (text, noMark) = JournalBrowser.parts(plain)
        #expect(noMark.isEmpty && InfoLine(text).fitted(30) == TextFit.ellipsize(text, 30))
    }

    @Test func theKeyBarOffersEnterOnlyWhereItPlays() throws {
        var model = ScreenModel()
        model.journal = JournalBrowser(entries: [Self.operatorEntry(detail: .object([("camera", .string("5"))]))])
        #expect(model.keyBar(kiosk: nil, directory: []).fit(200).contains("Enter recording"))
        model.journal = JournalBrowser(entries: [try MissedCallKeysTests.missed()])
        #expect(!model.keyBar(kiosk: nil, directory: []).fit(200).contains("Enter recording"))
    }
}
