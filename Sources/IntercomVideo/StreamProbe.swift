import Foundation

/// Whether a stream answers, without playing it: FFmpeg connects and sets the stream up (for
/// RTSP: OPTIONS, DESCRIBE with the credentials, SETUP, PLAY; for HLS the playlist) and opens its
/// video decoder, then the probe hangs up. `intercom doctor` and `intercom setup` ask it about a
/// panel's `rtsp`, so a stream that cannot play is said before `watch` finds out.
public enum StreamProbe {
    /// Nil when the stream answers and has a video track this build decodes; else why not, in
    /// the words `watch` uses (the URL without its password).
    public static func check(_ source: VideoSource) async -> VideoError? {
        await withCheckedContinuation { (continuation: CheckedContinuation<VideoError?, Never>) in
            let thread = Thread {
                let decoder = StreamDecoder(source: source, size: nil, interrupt: InterruptState())
                var failure: VideoError?
                do throws(VideoError) { try decoder.open() } catch { failure = error }
                // The TEARDOWN goes out here; a server that never answers it is cut short by the open deadline.
                decoder.close()
                continuation.resume(returning: failure)
            }
            thread.name = "intercom.probe"
            // FFmpeg's H.264 decoder wants more than Foundation's default stack (as `VideoStream`).
            thread.stackSize = 1 << 21
            thread.start()
        }
    }
}
