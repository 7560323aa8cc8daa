import Foundation
import IntercomDaemon
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomImaging

/// `on_call_incoming` waits up to `[hooks] snapshot_wait_ms` for the call's first peephole
/// picture (issue 25): the recorder's wait, on a journal in a test folder. The pipeline running the
/// hook is in IntercomCoreIntegrationTests' suite of the same name.
@Suite(.removesTestFolders) struct HookSnapshotWaitTests {
    // MARK: The recorder's wait, on fakes

    static func call(_ n: Int) -> IntercomEvent.CallRef {
        IntercomEvent.CallRef(id: CallID("c\(n)"), panel: "entrance", from: "sip:100001@127.0.0.1")
    }

    @Test func waitEndsWhenThePictureComes() async throws {
        let (recorder, directory) = try JournalRecorderStateTests.recorder()
        defer { withExtendedLifetime(directory) {} }
        let c = Self.call(1)
        await recorder.record(IntercomEvent(.callIncoming(c)))
        let waiter = Task { await recorder.picture(call: c.id, within: .seconds(60)) }
        let start = ContinuousClock.now
        try await TestPatience.poll("the wait for the first picture began") { await recorder.pictureWaits(call: c.id) == 1 }
        await recorder.record(IntercomEvent(.peepholeFrame(c, width: 640, height: 480, fps: 3)))
        let path = await waiter.value
        // Woken by the picture, not by the deadline (a loaded machine may take seconds, never 60).
        #expect(ContinuousClock.now - start < .seconds(30))
        let first = try recorder.journal.entries().first?.firstPicture
        #expect(path != nil && path == first)
    }

    @Test func waitGivesUpAtItsLimitOrWhenTheCallEnds() async throws {
        let (recorder, directory) = try JournalRecorderStateTests.recorder()
        defer { withExtendedLifetime(directory) {} }
        let c = Self.call(2)
        await recorder.record(IntercomEvent(.callIncoming(c)))
        let start = ContinuousClock.now
        #expect(await recorder.picture(call: c.id, within: .milliseconds(100)) == nil)
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(100) && waited < .seconds(20), "\(waited)")
        #expect(await recorder.picture(call: c.id, within: .zero) == nil)
        let waiter = Task { await recorder.picture(call: c.id, within: .seconds(60)) }
        try await TestPatience.poll("the wait for the first picture began") { await recorder.pictureWaits(call: c.id) == 1 }
        let ending = ContinuousClock.now
        await recorder.record(IntercomEvent(.callEnded(c, reason: .missed, durationSeconds: 1)))
        #expect(await waiter.value == nil)
        #expect(ContinuousClock.now - ending < .seconds(30), "the end did not wake the wait")
        // A call the journal does not know (none recorded) is not waited for.
        #expect(await recorder.picture(call: CallID("nobody"), within: .seconds(30)) == nil)
    }
}
