import CGstRTSPServer
import Foundation
import IntercomBase
import Synchronization

/// One simulated operator camera as Flussonic would record it: the porch scene (labelled with the
/// camera's name, so it is not the panel's picture) pushed into `appsrc`, x264 with a key frame every
/// second, and `hlssink2` writing 1 s MPEG-TS segments and a live playlist into a private folder
/// (mkdtemp, 0700) that only the newest `keptSegments` stay in. The folder goes at `stop()`.
final class OperatorCameraPipeline: @unchecked Sendable {
    // `pipeline` is set once in init; GStreamer's state changes are thread-safe, and `stopped`
    // lets exactly one caller tear it down.
    /// A low rate: the picture is a clock, and the machine may be running the panel's camera too.
    static let fps = 10
    static let playlistName = "live.m3u8"
    /// Segments the playlist names, and segments kept on disk (more, so a client that read the
    /// playlist a moment ago still finds the oldest one).
    static let playlistSegments = 5
    /// Also how far back the recording reaches: a minute and a quarter, a few MB (a whole minute
    /// to export, as `intercom-bench --export-only` does, while the newest seconds are still cut).
    static let keptSegments = 75

    let folder: PrivateTemporaryDirectory
    private let pipeline: UnsafeMutablePointer<GstElement>
    private let feed: CameraFeed
    private let stopped = Atomic<Bool>(false)

    /// What the pipelines need (the preview's elements too), with each one's Debian package.
    static let elements: [(element: String, package: String)] = [
        ("appsrc", "gstreamer1.0-plugins-base"), ("videoconvert", "gstreamer1.0-plugins-base"),
        ("x264enc", "gstreamer1.0-plugins-ugly"), ("h264parse", "gstreamer1.0-plugins-bad"),
        ("hlssink2", "gstreamer1.0-plugins-bad"), ("mpegtsmux", "gstreamer1.0-plugins-bad"),
        ("tsdemux", "gstreamer1.0-plugins-bad"), ("mp4mux", "gstreamer1.0-plugins-good"),
        ("identity", "libgstreamer1.0-0"), ("filesrc", "libgstreamer1.0-0"), ("filesink", "libgstreamer1.0-0"),
    ]

    private init(folder: PrivateTemporaryDirectory, pipeline: UnsafeMutablePointer<GstElement>, feed: CameraFeed) {
        self.folder = folder
        self.pipeline = pipeline
        self.feed = feed
    }

    /// Builds and plays the pipeline; the first segment is on disk about a second later.
    /// Throws one line when GStreamer refuses (the elements were checked at the operator's start).
    static func start(label: String) throws(SimulatorError) -> OperatorCameraPipeline {
        func fail(_ reason: String) -> SimulatorError { .cannotStartCameras(reason: reason) }
        let folder: PrivateTemporaryDirectory
        do {
            folder = try PrivateTemporaryDirectory.make(prefix: "intercom-operator-camera")
        } catch {
            throw fail("no private folder for its segments (\(error))")
        }
        var parseError: UnsafeMutablePointer<GError>?
        guard let pipeline = gst_parse_launch(launch(folder: folder.path), &parseError) else {
            defer { g_clear_error(&parseError) }
            folder.remove()
            throw fail(GStreamerElements.message(parseError))
        }
        // A pipeline that parsed with a warning still plays; the warning is only for links made later.
        g_clear_error(&parseError)
        guard let source = intercom_gst_bin_child(pipeline, RTSPStreamProfile.sourceName) else {
            gst_object_unref(pipeline)
            folder.remove()
            throw fail("the pipeline has no appsrc")
        }
        let feed = CameraFeed(fps: fps, label: label)
        // One source, always there: the feed renders only while it has one.
        feed.add(CameraFeed.Source(video: source, audio: nil), media: 0)
        guard gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else {
            // The feed never started, so its stop() would keep the source: drop it by hand.
            feed.remove(media: 0)
            _ = gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(pipeline)
            folder.remove()
            throw fail("the pipeline would not play")
        }
        feed.start()
        return OperatorCameraPipeline(folder: folder, pipeline: pipeline, feed: feed)
    }

    /// The live pipeline: the scene as RGB, stamped on arrival, a leaky queue of two so a stalled
    /// encoder never piles pictures up, and `hlssink2` cutting a segment each second. The sink asks
    /// the encoder for those key frames itself; x264's own interval is longer, since a key frame of
    /// its own a picture before the sink's request makes a one-picture segment.
    static func launch(folder: String) -> String {
        RTSPStreamProfile.pictureSource(fps: fps)
            + " ! videoconvert ! video/x-raw,format=I420"
            + " ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=\(fps * 2) bitrate=512 threads=1"
            + " ! video/x-h264,profile=baseline ! h264parse config-interval=-1"
            + " ! hlssink2 location=\"\(folder)/segment%05d.ts\" playlist-location=\"\(folder)/\(playlistName)\""
            + " target-duration=1 playlist-length=\(playlistSegments) max-files=\(keptSegments)"
    }

    /// The live playlist as hlssink2 last wrote it, if it names a segment yet.
    func playlist() -> String? {
        guard let text = try? String(contentsOfFile: folder.path + "/" + Self.playlistName, encoding: .utf8),
              Self.segments(in: text).count > 0 else { return nil }
        return text
    }

    /// The playlist, waiting up to `timeout` for its first segment (a camera just started).
    func waitForPlaylist(timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        while !stopped.load(ordering: .relaxed) {
            if let text = playlist() { return text }
            guard ContinuousClock.now < deadline else { return nil }
            usleep(50_000)
        }
        return nil
    }

    /// The segment names a playlist lists, oldest first.
    static func segments(in playlist: String) -> [String] {
        playlist.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Whether `name` is one of ours (`segment00012.ts`): nothing else in the folder is served.
    static func isSegmentName(_ name: String) -> Bool { segmentNumber(name) != nil }

    /// 12 for `segment00012.ts` (past 99999 the name grows a digit, so names do not sort).
    static func segmentNumber(_ name: String) -> Int? {
        guard name.hasPrefix("segment"), name.hasSuffix(".ts") else { return nil }
        let digits = name.dropFirst("segment".count).dropLast(".ts".count)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// A segment's bytes, nil once it has been deleted (or was never written).
    func segment(_ name: String) -> Data? {
        guard Self.isSegmentName(name) else { return nil }
        return FileManager.default.contents(atPath: folder.path + "/" + name)
    }

    /// A kept segment and the wall-clock time it covers.
    struct RecordedSegment {
        let name: String
        let start: Date
        let end: Date
    }

    /// The kept segments up to `newest` (the live playlist's last: later ones are still being
    /// written), oldest first. hlssink2 records no times, so a segment ends when its file was last
    /// written and begins when the one before it ended (the oldest: a target duration earlier).
    func recorded(upTo newest: String) -> [RecordedSegment] {
        guard let last = Self.segmentNumber(newest) else { return [] }
        let numbered = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .compactMap { name in Self.segmentNumber(name).map { (number: $0, name: name) } }
            .filter { $0.number <= last }.sorted { $0.number < $1.number }
        var segments: [RecordedSegment] = []
        for (_, name) in numbered {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: folder.path + "/" + name),
                  let end = attributes[.modificationDate] as? Date else { continue }
            let start = segments.last?.end ?? end.addingTimeInterval(-1)
            segments.append(RecordedSegment(name: name, start: min(start, end), end: end))
        }
        return segments
    }

    /// Stops the pictures and the pipeline and removes the folder. Safe to call twice.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        feed.stop()
        _ = gst_element_set_state(pipeline, GST_STATE_NULL)
        gst_object_unref(pipeline)
        folder.remove()
    }

    deinit { stop() }
}
