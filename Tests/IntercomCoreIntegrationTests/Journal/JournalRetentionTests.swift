import Foundation
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase

@Suite(.removesTestFolders) struct JournalRetentionTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 7, count: 100_000) + Data([0xFF, 0xD9])

    @Test func oldEntriesGoWithTheirPictures() throws {
        let directory = try TestDirectory(prefix: "intercom-retention")
        let journal = try Journal(directory: directory.path)
        let now = Date()
        let old = try journal.callStarted(panel: "entrance", call: CallID("c1"), caller: "sip:1@x", at: now.addingTimeInterval(-10 * 86400))
        let oldPicture = try journal.savePicture(Self.jpeg, row: old, slot: .first, at: now.addingTimeInterval(-10 * 86400))
        try journal.callEnded(old, outcome: "missed", duration: 3, at: now.addingTimeInterval(-10 * 86400 + 3))
        let recent = try journal.callStarted(panel: "entrance", call: CallID("c2"), caller: "sip:1@x", at: now.addingTimeInterval(-3600))
        let recentPicture = try journal.savePicture(Self.jpeg, row: recent, slot: .first, at: now.addingTimeInterval(-3600))
        #expect(try journal.prune(keepDays: 7, maxBytes: 1 << 30, now: now) == 1)
        #expect(!FileManager.default.fileExists(atPath: oldPicture))
        #expect(FileManager.default.fileExists(atPath: recentPicture))
        #expect(try journal.entries().map(\.id) == [recent])
    }

    @Test func sizeCapRemovesTheOldestFirst() throws {
        let directory = try TestDirectory(prefix: "intercom-retention")
        let journal = try Journal(directory: directory.path)
        let now = Date()
        var pictures: [String] = []
        for i in 0..<5 {
            let time = now.addingTimeInterval(Double(i - 5) * 60)
            let row = try journal.callStarted(panel: "p", call: CallID("c\(i)"), caller: "sip:1@x", at: time)
            pictures.append(try journal.savePicture(Self.jpeg, row: row, slot: .first, at: time))
        }
        // Room for about two pictures plus the database.
        try journal.prune(keepDays: 90, maxBytes: 260_000, now: now)
        let left = try journal.entries()
        #expect(left.count >= 1 && left.count <= 2, "\(left.count) left")
        #expect(left.last?.call == "c4")
        #expect(!FileManager.default.fileExists(atPath: pictures[0]) && FileManager.default.fileExists(atPath: pictures[4]))
        #expect(try journal.totalBytes() <= 260_000)
    }

    @Test func callsCutShortAreMarkedInterruptedAtTheNextStart() throws {
        let directory = try TestDirectory(prefix: "intercom-retention")
        let journal = try Journal(directory: directory.path)
        let row = try journal.callStarted(panel: "p", call: CallID("c1"), caller: "sip:1@x", at: Date())
        try journal.callAnswered(row, by: "auto")
        #expect(try journal.entries().first?.outcome == nil)
        let reopened = try Journal(directory: directory.path)
        #expect(try reopened.closeInterruptedCalls() == 1)
        let entry = try #require(try reopened.entries().first)
        #expect(entry.outcome == "interrupted" && entry.answeredBy == "auto" && !entry.missed)
        var info = stat()
        #expect(stat(reopened.databasePath, &info) == 0 && info.st_mode & 0o077 == 0)
    }

    @Test func sinceParsing() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(JournalQuery.parseSince("1h", now: now) == now.addingTimeInterval(-3600))
        #expect(JournalQuery.parseSince("2d", now: now) == now.addingTimeInterval(-2 * 86400))
        #expect(JournalQuery.parseSince("2024-05-01") != nil)
        #expect(JournalQuery.parseSince("yesterday") == nil)
    }

    /// The listing's one-string time spells what the date and clock parts spell.
    @Test func dateAndClockIsTheTwoPartsJoined() {
        let moments: [TimeInterval] = [0, 86_399.5, 1_780_295_400, 4_102_444_799, -62_100_000_000]
        for seconds in moments {
            let local = LocalTime(Date(timeIntervalSince1970: seconds))
            #expect(local.dateAndClock == local.date + " " + local.clock, "\(seconds)")
        }
    }

    /// The local forms are read on the process's clock (libc, no DateFormatter) and impossible days refused.
    @Test func sinceParsingLocalForms() throws {
        let midnight = try #require(JournalQuery.parseSince("2024-05-01"))
        #expect(LocalTime(midnight).date == "2024-05-01" && LocalTime(midnight).clock == "00:00:00")
        for text in ["2024-05-01 13:05", "2024-05-01T13:05"] {
            let moment = try #require(JournalQuery.parseSince(text))
            #expect(LocalTime(moment).date == "2024-05-01" && LocalTime(moment).clock == "13:05:00")
        }
        for bad in ["2024-02-30", "2024-13-01", "2024-05-01 24:00", "2024-5-1", "2024-05-01 13:05:00", "2024-05-01X13:05"] {
            #expect(JournalQuery.parseSince(bad) == nil, "\(bad)")
        }
    }
}
