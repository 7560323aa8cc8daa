import Foundation
import IntercomImaging

/// One picture from a stream or a file at its own size: an operator camera's `preview.mp4` (a
/// one-frame H.264 MP4 that yields its frame only once the decoder is drained), or the first frame
/// of a live stream. On a thread of its own, like `VideoStream`, because FFmpeg blocks.
public enum VideoPicture {
    public static func first(from source: VideoSource) async throws(VideoError) -> RGBImage {
        let interrupt = InterruptState()
        let result: Result<RGBImage, VideoError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: decodeFirst(source, interrupt))
                }
                thread.name = VideoStream.threadName
                thread.stackSize = 1 << 21
                thread.start()
            }
        } onCancel: {
            interrupt.requestStop()
        }
        return try result.get()
    }

    private static func decodeFirst(_ source: VideoSource, _ interrupt: InterruptState) -> Result<RGBImage, VideoError> {
        let decoder = StreamDecoder(source: source, size: nil, interrupt: interrupt)
        defer { decoder.close() }
        var picture: RGBImage?
        do {
            try decoder.open()
            try decoder.run { image in
                guard picture == nil else { return }
                picture = image
                interrupt.requestStop()
            }
        } catch {
            // A one-frame file ends right after its frame: the frame counts, the end does not.
            if picture == nil { return .failure(error) }
        }
        if let picture { return .success(picture) }
        return .failure(.ended(stream: source.displayName, reason: "it ended before its first picture"))
    }
}
