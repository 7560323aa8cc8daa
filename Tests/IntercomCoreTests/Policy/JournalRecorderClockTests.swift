import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomTestSupport
import Synchronization
import Testing

/// The journal recorder waits on the engine's clock: the picture at answer waits for the call's
/// own video, and a hook's wait for a call's picture ends, exactly when the test moves the manual
/// clock (issue 39: no real sleeps).
@Suite(.removesTestFolders) struct JournalRecorderClockTests {
    /// A peephole picture at once; the call's video only once `videoCame` (another JPEG).
    final class Pictures: JournalPictureSource, Sendable {
        static let peephole = jpeg(1)
        static let video = jpeg(2)
        let videoCame = Mutex(false)

        static func jpeg(_ fill: UInt8) -> Data {
            Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: fill, count: 100) + Data([0xFF, 0xD9])
        }

        func peepholeJPEG(call: CallID, panel: String?) -> Data? { Self.peephole }
        func videoJPEG(call: CallID) async -> Data? { videoCame.withLock { $0 } ? Self.video : nil }
    }

    static let call = IntercomEvent.CallRef(id: CallID("c1"), panel: "entrance", from: "sip:100001@127.0.0.1")
    static let step = JournalRecorder.videoPollStep

    static func recorder(_ clock: ManualClock, _ pictures: Pictures) throws -> (JournalRecorder, TestDirectory) {
        let directory = try TestDirectory(prefix: "intercom-recorder-clock")
        let journal = try Journal(directory: directory.path)
        return (JournalRecorder(journal: journal, pictures: pictures, logger: .silent, answerVideoWait: step * 3, clock: clock),
                directory)
    }

    static func answerPicture(_ recorder: JournalRecorder) throws -> Data? {
        try recorder.journal.entries().first?.answerPicture.flatMap { FileManager.default.contents(atPath: $0) }
    }

    @Test func theAnswerPictureIsTheCallsVideoWhenItComesWithinTheWait() async throws {
        let clock = ManualClock()
        let pictures = Pictures()
        let (recorder, directory) = try Self.recorder(clock, pictures)
        defer { withExtendedLifetime(directory) {} }
        await recorder.record(IntercomEvent(.callIncoming(Self.call)))
        await recorder.record(IntercomEvent(.callAnswered(Self.call, by: .user)))
        try await clock.waitForSleeper(endingIn: Self.step)
        clock.advance(by: Self.step)
        try await clock.waitForSleeper(endingIn: Self.step)
        #expect(try Self.answerPicture(recorder) == nil, "no picture before the video came")
        pictures.videoCame.withLock { $0 = true }
        clock.advance(by: Self.step)
        await recorder.settle()
        #expect(try Self.answerPicture(recorder) == Pictures.video)
    }

    @Test func withoutVideoThePeepholePictureIsTakenWhenTheWaitRunsOut() async throws {
        let clock = ManualClock()
        let (recorder, directory) = try Self.recorder(clock, Pictures())
        defer { withExtendedLifetime(directory) {} }
        await recorder.record(IntercomEvent(.callIncoming(Self.call)))
        await recorder.record(IntercomEvent(.callAnswered(Self.call, by: .user)))
        for _ in 0..<3 {
            try await clock.waitForSleeper(endingIn: Self.step)
            #expect(try Self.answerPicture(recorder) == nil, "the wait is not over")
            clock.advance(by: Self.step)
        }
        await recorder.settle()
        #expect(try Self.answerPicture(recorder) == Pictures.peephole)
        #expect(await recorder.heldState.pending == 0)
    }

    @Test func aHooksWaitForAPictureEndsOnTheEnginesClockOrWithTheFirstPicture() async throws {
        let clock = ManualClock()
        let (recorder, directory) = try Self.recorder(clock, Pictures())
        defer { withExtendedLifetime(directory) {} }
        await recorder.record(IntercomEvent(.callIncoming(Self.call)))
        async let timedOut = recorder.picture(call: Self.call.id, within: .seconds(2))
        try await clock.waitForSleeper(endingIn: .seconds(2))
        clock.advance(by: .seconds(2))
        #expect(await timedOut == nil)

        async let pictured = recorder.picture(call: Self.call.id, within: .seconds(2))
        try await clock.waitForSleeper(endingIn: .seconds(2))
        await recorder.record(IntercomEvent(.peepholeFrame(Self.call, width: 640, height: 480, fps: 3)))
        let path = await pictured
        let first = try recorder.journal.entries().first?.firstPicture
        #expect(path != nil && path == first)
        #expect(clock.pending.isEmpty, "the wait's timer ended with it")
    }
}
