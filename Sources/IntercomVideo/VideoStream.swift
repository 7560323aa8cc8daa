import Foundation
import IntercomBase
import IntercomImaging

/// One live stream being played: a decode thread of its own that connects, decodes and scales to
/// `size` (or, with `keepShape`, to the largest size inside it with the picture's own shape; `resize`
/// changes it while playing), and hands pictures out through `frames`. Only the newest picture waits there: a reader
/// slower than the stream (a terminal over SSH) skips frames instead of queueing them.
///
/// `frames` finishes without error after `stop()` (or when its reader goes away), and throws a
/// `VideoError` when the stream cannot be opened or stops on its own.
public final class VideoStream: Sendable {
    public let source: VideoSource
    public let size: PixelSize
    /// RGB pictures of `size` (see `keepShape`); the error, when there is one, is always a `VideoError`.
    public let frames: AsyncThrowingStream<RGBImage, any Error>

    /// The name a decode thread carries (`/proc/PID/task/*/comm`, debuggers) unless its stream
    /// was given another (at most 15 bytes, the kernel's limit).
    public static let threadName = "intercom.video"

    private let interrupt = InterruptState()
    private let completion = VideoCompletion()
    private let target: ScaleTarget

    /// Starts at once: the thread connects while the caller goes on. `keepShape`: pictures fit
    /// inside `size` with the stream's shape instead of being stretched to it. `threadName` tells
    /// this stream's thread from others' in `top -H` (and in tests that count them).
    public init(source: VideoSource, size: PixelSize, keepShape: Bool = false, threadName: String = VideoStream.threadName) {
        self.source = source
        self.size = size
        let target = ScaleTarget(size, fit: keepShape ? .within : .exactly)
        self.target = target
        let (frames, continuation) = AsyncThrowingStream.makeStream(
            of: RGBImage.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1))
        self.frames = frames
        let interrupt = self.interrupt
        let completion = self.completion
        continuation.onTermination = { _ in interrupt.requestStop() }
        let thread = Thread {
            KernelThreadName.set(threadName)
            if let failure = VideoStream.decode(source: source, target: target, interrupt: interrupt,
                                                deliver: { continuation.yield($0) }) {
                continuation.finish(throwing: failure)
            } else {
                continuation.finish()
            }
            completion.finish()
        }
        thread.name = threadName
        // FFmpeg's H.264 decoder wants more than Foundation's default stack.
        thread.stackSize = 1 << 21
        thread.start()
    }

    /// Asks the decode thread to stop (a blocking read is cut short by the interrupt callback) and
    /// returns once it is done with FFmpeg. Safe to call more than once.
    public func stop() async {
        interrupt.requestStop()
        await completion.wait()
    }

    /// Scales the next frames to `size` instead (a resized window), without reconnecting.
    public func resize(to size: PixelSize) { target.set(size) }

    /// The size the next frames are scaled for (`size` until `resize`).
    public var requestedSize: PixelSize { target.size ?? size }

    /// Returns once the decode thread is done, whether stopped or failed.
    public func finished() async { await completion.wait() }

    deinit { interrupt.requestStop() }

    /// The decode thread's whole life; the decoder never leaves it. Nil when stopped on request.
    private static func decode(source: VideoSource, target: ScaleTarget, interrupt: InterruptState,
                               deliver: (RGBImage) -> Void) -> VideoError? {
        let decoder = StreamDecoder(source: source, target: target, interrupt: interrupt)
        defer { decoder.close() }
        do {
            try decoder.open()
            try decoder.run(deliver: deliver)
            return nil
        } catch {
            return interrupt.isStopRequested ? nil : error
        }
    }
}
