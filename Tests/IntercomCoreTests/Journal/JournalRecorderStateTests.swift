import Foundation
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase

/// The recorder runs for months in the daemon: what it holds per call must go when the call
/// does, or a busy door grows the daemon without end (issue 10).
@Suite(.removesTestFolders) struct JournalRecorderStateTests {
    /// Pictures without video or panels: the call's video is ready at once.
    struct FixedPictures: JournalPictureSource {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 5, count: 1000) + Data([0xFF, 0xD9])
        func peepholeJPEG(call: CallID, panel: String?) -> Data? { jpeg }
        func videoJPEG(call: CallID) async -> Data? { jpeg }
    }

    static func recorder() throws -> (JournalRecorder, TestDirectory) {
        let directory = try TestDirectory(prefix: "intercom-recorder-state")
        let journal = try Journal(directory: directory.path)
        return (JournalRecorder(journal: journal, pictures: FixedPictures(), logger: .silent,
                                answerVideoWait: .milliseconds(50)), directory)
    }

    static func call(_ n: Int) -> IntercomEvent.CallRef {
        IntercomEvent.CallRef(id: CallID("c\(n)"), panel: "entrance", from: "sip:100001@127.0.0.1")
    }

    @Test func finishedPicturesAtAnswerAreNotKept() async throws {
        let (recorder, directory) = try Self.recorder()
        defer { withExtendedLifetime(directory) {} }
        for n in 0..<120 {
            let c = Self.call(n)
            await recorder.record(IntercomEvent(.callIncoming(c)))
            await recorder.record(IntercomEvent(.peepholeFrame(c, width: 640, height: 480, fps: 3)))
            await recorder.record(IntercomEvent(.callAnswered(c, by: .auto)))
            await recorder.record(IntercomEvent(.callEnded(c, reason: .remoteHangup, durationSeconds: 1)))
        }
        // Without settle(): the tasks must drop themselves as they end.
        await TestPatience.eventually(within: .seconds(10)) { await recorder.heldState.pending == 0 }
        let held = await recorder.heldState
        #expect(held.pending == 0 && held.rows == 0 && held.pictured == 0, "\(held)")
        #expect(held.latest <= 64, "\(held)")
        let entries = try recorder.journal.entries()
        #expect(entries.count == 120 && entries.allSatisfy { $0.answerPicture != nil && $0.firstPicture != nil })
        // The hooks' INTERCOM_SNAPSHOT still names the newest call's picture.
        #expect(await recorder.latestPicture(call: CallID("c119")) == entries.last?.answerPicture)
        #expect(await recorder.latestPicture(call: CallID("c0")) == nil)
    }

    @Test func settleWaitsForPicturesStillBeingTaken() async throws {
        let (recorder, directory) = try Self.recorder()
        defer { withExtendedLifetime(directory) {} }
        let c = Self.call(1)
        await recorder.record(IntercomEvent(.callIncoming(c)))
        await recorder.record(IntercomEvent(.callAnswered(c, by: .user)))
        #expect(await recorder.heldState.pending == 1)
        await recorder.settle()
        #expect(await recorder.heldState.pending == 0)
        #expect(try recorder.journal.entries().first?.answerPicture != nil)
    }

    @Test func callsThatRingAndEndUnansweredLeaveNothing() async throws {
        let (recorder, directory) = try Self.recorder()
        defer { withExtendedLifetime(directory) {} }
        for n in 0..<100 {
            let c = Self.call(n)
            await recorder.record(IntercomEvent(.callIncoming(c)))
            await recorder.record(IntercomEvent(.peepholeFrame(c, width: 640, height: 480, fps: 3)))
            await recorder.record(IntercomEvent(.callEnded(c, reason: .missed, durationSeconds: 0)))
            // A frame that arrives after the end must not bring the call back.
            await recorder.record(IntercomEvent(.peepholeFrame(c, width: 640, height: 480, fps: 3)))
        }
        let held = await recorder.heldState
        #expect(held.rows == 0 && held.pictured == 0 && held.pending == 0 && held.latest <= 64, "\(held)")
    }
}
