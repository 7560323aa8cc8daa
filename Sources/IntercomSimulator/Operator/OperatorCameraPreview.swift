import CGstRTSPServer
import Foundation

/// Flussonic's `preview.mp4`: H.264 in MP4 whose first picture is the camera's newest key frame.
/// Made on request from the newest segment the live playlist names (each begins on a key frame): a
/// short GStreamer pipeline demuxes it, stops after the first pictures (`identity eos-after=2`,
/// which after tsdemux and h264parse lets the key frame and one more through; eos-after=1 let
/// only a later, undecodable picture through) and muxes them into an MP4 file beside the segments.
enum OperatorCameraPreview {
    /// How long the pipeline may take before the request gets no picture.
    static let timeout = Duration.seconds(5)

    /// The MP4's bytes, or nil when GStreamer could not make it in time.
    static func make(fromSegment segment: String, in folder: String) -> Data? {
        run(input: "\(folder)/\(segment)", frames: 2, in: folder, timeout: timeout)
    }

    /// The segments, one after the other, as one MP4 (`archive-FROM-DURATION.mp4`): MPEG-TS
    /// segments joined end to end are one transport stream, which the same pipeline remuxes whole.
    static func mux(segments: [String], in folder: String) -> Data? {
        let joined = "\(folder)/archive-\(UUID().uuidString).ts"
        defer { try? FileManager.default.removeItem(atPath: joined) }
        var data = Data()
        for segment in segments {
            guard let bytes = FileManager.default.contents(atPath: "\(folder)/\(segment)") else { return nil }
            data.append(bytes)
        }
        guard FileManager.default.createFile(atPath: joined, contents: data) else { return nil }
        return run(input: joined, frames: nil, in: folder, timeout: .seconds(20))
    }

    /// `input` (MPEG-TS) remuxed to MP4, only its first `frames` pictures when given.
    private static func run(input: String, frames: Int?, in folder: String, timeout: Duration) -> Data? {
        let output = "\(folder)/preview-\(UUID().uuidString).mp4"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let launch = "filesrc location=\"\(input)\" ! tsdemux ! h264parse"
            + " ! video/x-h264,stream-format=avc,alignment=au" + (frames.map { " ! identity eos-after=\($0)" } ?? "")
            + " ! mp4mux ! filesink location=\"\(output)\""
        var parseError: UnsafeMutablePointer<GError>?
        let built = gst_parse_launch(launch, &parseError)
        g_clear_error(&parseError)
        guard let pipeline = built else { return nil }
        defer {
            _ = gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(pipeline)
        }
        guard gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE,
              let bus = gst_element_get_bus(pipeline) else { return nil }
        defer { gst_object_unref(bus) }
        let wanted = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        let nanoseconds = GstClockTime(timeout / .milliseconds(1)) * 1_000_000
        guard let message = gst_bus_timed_pop_filtered(bus, nanoseconds, wanted) else { return nil }
        let finished = message.pointee.type == GST_MESSAGE_EOS
        gst_message_unref(message)
        guard finished else { return nil }
        // EOS reached the sink, so mp4mux has written its index and the file is whole.
        return FileManager.default.contents(atPath: output)
    }
}
