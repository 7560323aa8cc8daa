import Foundation
import IntercomDaemon
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// One recording process per journal: a TUI beside a daemon reads the journal, never writes it twice.
@Suite(.removesTestFolders) struct JournalWriterLockTests {
    @Test func theSecondWriterIsToldTheJournalIsTakenUntilTheFirstGoes() throws {
        let directory = try TestDirectory(prefix: "intercom-journal-lock")
        var first = try JournalWriterLock(directory: directory.path)
        #expect(first != nil)
        #expect(try JournalWriterLock(directory: directory.path) == nil)
        first = nil
        #expect(try JournalWriterLock(directory: directory.path) != nil)
    }

    @Test func aSecondPipelineDoesNotRecord() async throws {
        let directory = try TestDirectory(prefix: "intercom-journal-lock")
        let config = IntercomConfig(daemon: DaemonSettings(socketPath: "/tmp/unused.sock"),
                                    journal: JournalSettings(path: directory.path))
        let a = Intercom(config: config, phoneSettings: PhoneSettings(config: config, environment: [:]), logger: .silent)
        let b = Intercom(config: config, phoneSettings: PhoneSettings(config: config, environment: [:]), logger: .silent)
        let first = EventPipeline(intercom: a, config: config, environment: [:], logger: .silent)
        let second = EventPipeline(intercom: b, config: config, environment: [:], logger: .silent)
        #expect(first.recorder != nil)
        #expect(second.recorder == nil)
        await a.stop()
        await b.stop()
        await first.finish()
        await second.finish()
    }
}
