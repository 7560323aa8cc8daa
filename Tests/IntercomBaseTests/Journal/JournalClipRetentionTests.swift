import Foundation
@testable import IntercomBase
import IntercomTestSupport
import Testing

/// Clips in the journal (`[panel] record`): private files with unguessable names, counted in
/// the size cap, removed with their entries, and never left behind without one.
@Suite struct JournalClipRetentionTests {
    static func call(_ journal: Journal, at time: Date, clipBytes: Int, slot: Journal.ClipSlot = .call) throws -> (Int64, String) {
        let row = try journal.callStarted(panel: "entrance", call: CallID("c\(time.timeIntervalSince1970)"),
                                          caller: "sip:panel@127.0.0.1", at: time)
        let path = try Journal.newClipFile(in: journal.picturesDirectory, slot: slot, at: time)
        try Data(repeating: 7, count: clipBytes).write(to: URL(fileURLWithPath: path))
        try journal.setClip(path, row: row, slot: slot)
        try journal.callEnded(row, outcome: "remote_hangup", duration: 3, at: time.addingTimeInterval(3))
        return (row, path)
    }

    @Test func clipFilesArePrivateAndNamedApart() throws {
        let directory = try TestDirectory(prefix: "journal-clips")
        let journal = try Journal(directory: directory.path + "/journal")
        let time = Date()
        let a = try Journal.newClipFile(in: journal.picturesDirectory, slot: .call, at: time)
        let b = try Journal.newClipFile(in: journal.picturesDirectory, slot: .call, at: time)
        #expect(a != b && a.hasSuffix(".mkv") && a.contains("-call-"))
        var info = stat()
        #expect(stat(a, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(journal.picturesDirectory, &info) == 0 && info.st_mode & 0o077 == 0)
    }

    @Test func retentionByAgeRemovesTheClipWithItsEntry() throws {
        let directory = try TestDirectory(prefix: "journal-clips")
        let journal = try Journal(directory: directory.path + "/journal")
        let now = Date()
        let (_, old) = try Self.call(journal, at: now.addingTimeInterval(-10 * 86400), clipBytes: 1000)
        let (_, ring) = try Self.call(journal, at: now.addingTimeInterval(-9 * 86400), clipBytes: 1000, slot: .ring)
        let (_, fresh) = try Self.call(journal, at: now.addingTimeInterval(-60), clipBytes: 1000)
        #expect(try journal.prune(keepDays: 7, maxBytes: 1 << 40, now: now) == 2)
        #expect(!FileManager.default.fileExists(atPath: old) && !FileManager.default.fileExists(atPath: ring))
        #expect(FileManager.default.fileExists(atPath: fresh))
        let left = try journal.entries()
        #expect(left.count == 1 && left.first?.clip == fresh)
        let json = try #require(left.first?.json.encoded)
        #expect(json.contains("\"clip\":\"\(fresh.replacingOccurrences(of: "/", with: "\\/"))\"") || json.contains("\"clip\":\"\(fresh)\""), "\(json)")
    }

    @Test func clipsCountInTheSizeCapAndTheOldestGoFirst() throws {
        let directory = try TestDirectory(prefix: "journal-clips")
        let journal = try Journal(directory: directory.path + "/journal")
        let now = Date()
        let before = try journal.totalBytes()
        let (_, first) = try Self.call(journal, at: now.addingTimeInterval(-300), clipBytes: 400_000)
        let (_, second) = try Self.call(journal, at: now.addingTimeInterval(-200), clipBytes: 400_000)
        let (_, third) = try Self.call(journal, at: now.addingTimeInterval(-100), clipBytes: 400_000)
        #expect(try journal.totalBytes() >= before + 1_200_000)
        // Room for about two clips: the oldest entry goes, with its clip.
        let removed = try journal.prune(keepDays: 90, maxBytes: try journal.totalBytes() - 300_000, now: now)
        #expect(removed == 1)
        #expect(!FileManager.default.fileExists(atPath: first))
        #expect(FileManager.default.fileExists(atPath: second) && FileManager.default.fileExists(atPath: third))
    }

    @Test func aClipNoEntryNamesIsRemovedAtStartAndNamedOnesStay() throws {
        let directory = try TestDirectory(prefix: "journal-clips")
        let journal = try Journal(directory: directory.path + "/journal")
        let (row, kept) = try Self.call(journal, at: Date(), clipBytes: 10)
        let stray = try Journal.newClipFile(in: journal.picturesDirectory, slot: .ring)
        #expect(try journal.removeOrphanedClips() == 1)
        #expect(!FileManager.default.fileExists(atPath: stray) && FileManager.default.fileExists(atPath: kept))
        // A call cut short by a crash keeps its half-written clip, named by its interrupted entry.
        let cut = try journal.callStarted(panel: "entrance", call: CallID("cut"), caller: "x", at: Date())
        let partial = try Journal.newClipFile(in: journal.picturesDirectory, slot: .call)
        try journal.setClip(partial, row: cut, slot: .call)
        #expect(try journal.closeInterruptedCalls() == 1)
        #expect(try journal.removeOrphanedClips() == 0)
        #expect(try journal.entries().first { $0.id == cut }?.clip == partial)
        #expect(try journal.clip(row: row, slot: .call) == kept)
    }
}
