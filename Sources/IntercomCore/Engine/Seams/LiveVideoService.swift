import IntercomImaging
import IntercomVideo

/// What the engine asks of live video: open a stream (RTSP, HLS) decoded and scaled to a size.
/// `FFmpegVideoService` (IntercomVideo's `VideoStream`) is the production one.
public protocol LiveVideoService: Sendable {
    func open(_ source: VideoSource, size: PixelSize, threadName: String) -> any LiveVideoStream
}

/// One open stream: its frames until it fails or stops; resizable while it plays.
public protocol LiveVideoStream: Sendable {
    var frames: AsyncThrowingStream<RGBImage, any Error> { get }
    /// The size frames are scaled to now.
    var requestedSize: PixelSize { get }
    func resize(to size: PixelSize)
    /// Stops decoding and returns once the decode thread has ended.
    func stop() async
}

extension VideoStream: LiveVideoStream {}

/// Live video through FFmpeg, on a decode thread per stream. Frames keep the stream's shape.
public struct FFmpegVideoService: LiveVideoService {
    public init() {}

    public func open(_ source: VideoSource, size: PixelSize, threadName: String) -> any LiveVideoStream {
        VideoStream(source: source, size: size, keepShape: true, threadName: threadName)
    }
}
