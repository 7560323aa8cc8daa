import Foundation
import IntercomCore
import IntercomImaging
import IntercomVideo
import Synchronization

/// Live video in engine tests: each stream the engine opens is recorded and handed to the test,
/// which pushes frames into it, fails it or ends it. No decoder, no thread.
package final class FakeVideo: LiveVideoService {
    /// Every stream the engine opened, in order.
    package let streams = Ledger<FakeVideoStream>()

    package init() {}

    package func open(_ source: VideoSource, size: PixelSize, threadName: String) -> any LiveVideoStream {
        let stream = FakeVideoStream(source: source, size: size)
        streams.append(stream)
        return stream
    }

    /// The next stream of `url` the engine opens (or one it opened already and has not stopped).
    package func stream(of url: String, timeout: Duration = .seconds(10)) async throws -> FakeVideoStream {
        try await streams.wait(for: "a stream of \(url)", timeout: timeout) { $0.source.url == url && !$0.isStopped }
    }
}

/// One open stream: frames come when the test pushes them.
package final class FakeVideoStream: LiveVideoStream, CustomStringConvertible {
    private struct State {
        var size: PixelSize
        var stopped = false
    }

    package let source: VideoSource
    package let frames: AsyncThrowingStream<RGBImage, any Error>
    private let sink: AsyncThrowingStream<RGBImage, any Error>.Continuation
    private let state: Mutex<State>

    init(source: VideoSource, size: PixelSize) {
        self.source = source
        state = Mutex(State(size: size))
        (frames, sink) = AsyncThrowingStream<RGBImage, any Error>.makeStream(bufferingPolicy: .unbounded)
    }

    package var requestedSize: PixelSize { state.withLock { $0.size } }
    package var isStopped: Bool { state.withLock { $0.stopped } }
    package var description: String { "stream of \(source.url) at \(requestedSize)\(isStopped ? ", stopped" : "")" }

    package func resize(to size: PixelSize) { state.withLock { $0.size = size } }

    package func stop() async {
        state.withLock { $0.stopped = true }
        sink.finish()
    }

    /// A decoded frame at the size the engine asked for.
    package func push() {
        let size = requestedSize
        sink.yield(RGBImage(width: size.width, height: size.height))
    }

    /// The stream fails as FFmpeg's would.
    package func fail(_ error: VideoError) { sink.finish(throwing: error) }
}
