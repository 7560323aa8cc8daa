/// One of the simulated camera's RTSP streams: where it is mounted and what it sends. Beward panels
/// serve a main stream at `/av0_0` and a smaller sub stream at `/av0_1`; both here carry the porch
/// scene as H.264 (x264, baseline, a key frame every second) plus a PCMA track of silence, like a
/// panel's microphone (G.711 A-law 8 kHz). Both come from `appsrc`s: a seekable source such as
/// `audiotestsrc` would make the server seek on PLAY, which an `appsrc` refuses (503).
public struct RTSPStreamProfile: Sendable, Equatable {
    public let path: String
    public let width: Int
    public let height: Int
    /// x264's target bit rate, kbit/s (SmartYard configures panels with 1024 main, 348 sub).
    public let kilobitsPerSecond: Int

    public static let main = RTSPStreamProfile(path: "/av0_0", width: SyntheticFrame.width,
                                               height: SyntheticFrame.height, kilobitsPerSecond: 1024)
    /// CIF, the likeliest size of a panel's sub stream.
    public static let sub = RTSPStreamProfile(path: "/av0_1", width: 352, height: 288, kilobitsPerSecond: 348)

    public static let all: [RTSPStreamProfile] = [.main, .sub]

    /// The name of the `appsrc` the camera feeds in every client's pipeline.
    static let sourceName = "src"
    /// The name of the audio `appsrc` beside it.
    static let audioSourceName = "asrc"
    /// The audio the camera pushes: 16-bit mono at 8 kHz, A-law encoded in the pipeline.
    static let audioRate = 8000

    /// The pipeline each client gets (factories are not shared, so every client starts on a key frame).
    /// The scene enters as RGB at its own size and `fps`, stamped on arrival (a live source); the queue
    /// keeps the newest two pictures, so a client that pauses never piles frames up.
    func launch(fps: Int) -> String {
        let source = Self.pictureSource(fps: fps)
        let scale = width == SyntheticFrame.width && height == SyntheticFrame.height
            ? "" : " ! videoscale add-borders=false ! video/x-raw,width=\(width),height=\(height)"
        let video = source + scale
            + " ! videoconvert ! video/x-raw,format=I420"
            + " ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=\(fps) bitrate=\(kilobitsPerSecond) threads=1"
            + " ! video/x-h264,profile=baseline ! rtph264pay name=pay0 pt=96 config-interval=1"
        let audio = "appsrc name=\(Self.audioSourceName) is-live=true do-timestamp=true format=time "
            + "max-buffers=2 leaky-type=downstream "
            + "caps=audio/x-raw,format=S16LE,layout=interleaved,rate=\(Self.audioRate),channels=1"
            + " ! alawenc ! rtppcmapay name=pay1 pt=8"
        return "( \(video) \(audio) )"
    }

    /// The `appsrc` the camera feeds (`CameraFeed`): the scene as RGB at its own size and `fps`, stamped
    /// when pushed, a leaky queue of the newest two.
    static func pictureSource(fps: Int) -> String {
        "appsrc name=\(sourceName) is-live=true do-timestamp=true format=time max-buffers=2 leaky-type=downstream "
            + "caps=video/x-raw,format=RGB,width=\(SyntheticFrame.width),height=\(SyntheticFrame.height),framerate=\(fps)/1"
    }

    /// The GStreamer elements the pipelines need, with the Debian package of each, checked at start so
    /// a missing plugin is one clear line then, not a 503 when a client connects.
    static let elements: [(element: String, package: String)] = [
        ("appsrc", "gstreamer1.0-plugins-base"), ("videoconvert", "gstreamer1.0-plugins-base"),
        ("videoscale", "gstreamer1.0-plugins-base"), ("x264enc", "gstreamer1.0-plugins-ugly"),
        ("rtph264pay", "gstreamer1.0-plugins-good"), ("alawenc", "gstreamer1.0-plugins-good"),
        ("rtppcmapay", "gstreamer1.0-plugins-good"),
    ]
}
