import Foundation
import IntercomDaemon
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone
import Synchronization

/// Pictures are written so that a crash or power cut leaves either no picture or a whole one,
/// and a crash's half-written temp files are removed at the next start.
@Suite(.removesTestFolders) struct JournalDurabilityTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 9, count: 50_000) + Data([0xFF, 0xD9])

    @Test func pictureIsWholePrivateAndLeavesNoTemporary() throws {
        let directory = try TestDirectory(prefix: "intercom-durable")
        let journal = try Journal(directory: directory.path)
        let row = try journal.callStarted(panel: "p", call: CallID("c1"), caller: "sip:1@x", at: Date())
        let path = try journal.savePicture(Self.jpeg, row: row, slot: .first, at: Date())
        #expect(FileManager.default.contents(atPath: path) == Self.jpeg)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let names = try FileManager.default.contentsOfDirectory(atPath: journal.picturesDirectory)
        #expect(names == [URL(fileURLWithPath: path).lastPathComponent], "\(names)")
    }

    @Test func aFailedRenameRemovesItsTemporary() throws {
        let directory = try TestDirectory(prefix: "intercom-durable")
        // A non-empty directory in the way: rename(2) refuses to replace it.
        let target = try directory.subdirectory("taken").path
        try directory.write("x", to: "taken/inside")
        #expect(throws: JournalError.self) { try DurableFile.write(Self.jpeg, to: target) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["taken"])
    }

    /// The temporary name is random and made with O_EXCL: a link planted at the name an older
    /// version used (or any guessed one) is neither followed nor in the way.
    @Test func aLinkPlantedAtAGuessedTemporaryNameIsNotFollowed() throws {
        let directory = try TestDirectory(prefix: "intercom-durable")
        let victim = try directory.write("keep", to: "victim").path
        let target = directory.file("picture.jpg").path
        #expect(symlink(victim, directory.path + "/.picture.jpg.tmp") == 0)
        try DurableFile.write(Self.jpeg, to: target)
        #expect(directory.read("victim") == "keep")
        #expect(FileManager.default.contents(atPath: target) == Self.jpeg)
    }

    /// A crash's leftover never blocks a write; `removeTemporaries(of:)` (run under the file's
    /// lock) takes only that file's, not a neighbour's.
    @Test func aCrashsTemporaryNeverBlocksAndGoesUnderTheLock() throws {
        let directory = try TestDirectory(prefix: "intercom-durable")
        let target = directory.file("home.json").path
        let leftover = DurableFile.temporaryPrefix(for: target) + "dead" + DurableFile.temporarySuffix
        let neighbours = DurableFile.temporaryPrefix(for: directory.file("work.json").path) + "beef" + DurableFile.temporarySuffix
        try Data("half".utf8).write(to: URL(fileURLWithPath: leftover))
        try Data("busy".utf8).write(to: URL(fileURLWithPath: neighbours))
        try DurableFile.write(Data("whole".utf8), to: target)
        #expect(directory.read("home.json") == "whole")
        #expect(DurableFile.removeTemporaries(of: target) == 1)
        #expect(!FileManager.default.fileExists(atPath: leftover) && FileManager.default.fileExists(atPath: neighbours))
    }

    /// Two writers of one file each write their own temporary file: the file is always one of the
    /// two whole, never a mix or a cut, and no temporary is left.
    @Test func concurrentWritersEachLeaveAWholeFile() throws {
        let directory = try TestDirectory(prefix: "intercom-durable")
        let target = directory.file("shared.json").path
        let contents = (0..<4).map { Data(repeating: UInt8(0x41 + $0), count: 64 * 1024 + $0) }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 100) { round in
            do {
                try DurableFile.write(contents[round % contents.count], to: target)
            } catch {
                failures.withLock { $0 += 1 }
            }
            if let now = FileManager.default.contents(atPath: target), !contents.contains(now) {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["shared.json"])
    }

    @Test func orphanedTemporariesGoAtStartAndPicturesStay() throws {
        let directory = try TestDirectory(prefix: "intercom-durable")
        let journal = try Journal(directory: directory.path)
        let row = try journal.callStarted(panel: "p", call: CallID("c1"), caller: "sip:1@x", at: Date())
        let kept = try journal.savePicture(Self.jpeg, row: row, slot: .first, at: Date())
        // What a daemon killed between write and rename leaves behind.
        let orphan = DurableFile.temporaryPrefix(for: journal.picturesDirectory + "/20240101-120000-7-answer.jpg") + "5eed.tmp"
        try Data(Self.jpeg.prefix(100)).write(to: URL(fileURLWithPath: orphan))
        let unrelated = journal.picturesDirectory + "/notes.tmp"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: unrelated))
        #expect(journal.removeOrphanedPictures() == 1)
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(FileManager.default.fileExists(atPath: kept) && FileManager.default.fileExists(atPath: unrelated))
        #expect(journal.removeOrphanedPictures() == 0)
    }

    @Test func theDaemonsPipelineRemovesOrphansWhenItTakesTheJournal() async throws {
        let directory = try TestDirectory(prefix: "intercom-durable")
        let journalPath = directory.path + "/journal"
        let journal = try Journal(directory: journalPath)
        let orphan = DurableFile.temporaryPrefix(for: journal.picturesDirectory + "/x-1-ring.jpg") + "5eed.tmp"
        try Data("half".utf8).write(to: URL(fileURLWithPath: orphan))
        let config = IntercomConfig(daemon: DaemonSettings(socketPath: "/tmp/unused.sock"),
                                    journal: JournalSettings(path: journalPath))
        let intercom = Intercom(config: config, phoneSettings: PhoneSettings(config: config, environment: [:]), logger: .silent)
        let pipeline = EventPipeline(intercom: intercom, config: config, environment: [:], logger: .silent)
        #expect(pipeline.recorder != nil)
        #expect(!FileManager.default.fileExists(atPath: orphan))
        await intercom.stop()
        await pipeline.finish()
    }
}
