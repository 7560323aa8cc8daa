import Foundation
import IntercomBase

/// Copies a live stream into a file as it comes, without decoding or re-encoding: the panel's
/// H.264 (and its audio track when it has one) remuxed into Matroska on a thread of its own,
/// from the first key frame until `stop()`, a failure, or `maxLength` of stream time. The file
/// plays up to the last packet written even when the process dies mid-way (Matroska needs no
/// index to play).
public final class StreamRecorder: Sendable {
    /// How a recording went.
    public struct Outcome: Sendable, Equatable {
        /// Stream time written, from the first key frame.
        public var seconds: Double
        public var videoPackets: Int
        public var audioPackets: Int
        /// Why it stopped on its own (the stream failed or never opened); nil when stopped or full.
        public var error: VideoError?

        /// Anything worth keeping was written.
        public var hasVideo: Bool { videoPackets > 0 }
    }

    public let source: VideoSource
    public let path: String
    public let maxLength: Duration
    /// The name the recording thread carries (`/proc/PID/task/*/comm`).
    public static let threadName = "intercom.record"

    private let interrupt = InterruptState()
    private let completion = VideoCompletion()
    private let result = OutcomeBox()

    /// Starts at once; `path` is created or truncated (its mode kept: create it 0600 first).
    public init(source: VideoSource, path: String, maxLength: Duration = .seconds(180)) {
        self.source = source
        self.path = path
        self.maxLength = maxLength
        let interrupt = self.interrupt
        let completion = self.completion
        let result = self.result
        let thread = Thread {
            KernelThreadName.set(Self.threadName)
            let remuxer = StreamRemuxer(source: source, path: path, maxLength: maxLength, interrupt: interrupt)
            result.set(remuxer.run())
            completion.finish()
        }
        thread.name = Self.threadName
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Ends the recording (a blocking read is cut short), closes the file properly and returns
    /// how it went. Safe to call more than once.
    @discardableResult
    public func stop() async -> Outcome {
        interrupt.requestStop()
        return await finished()
    }

    /// Waits for the recording to end by itself (a failure or `maxLength`).
    public func finished() async -> Outcome {
        await completion.wait()
        return result.get()
    }

    deinit { interrupt.requestStop() }
}

/// The outcome, handed from the recording thread to whoever awaits it.
private final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome = StreamRecorder.Outcome(seconds: 0, videoPackets: 0, audioPackets: 0, error: nil)
    func set(_ value: StreamRecorder.Outcome) { lock.withLock { outcome = value } }
    func get() -> StreamRecorder.Outcome { lock.withLock { outcome } }
}
