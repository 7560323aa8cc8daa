import Foundation

/// The camera's recording, as far as the kept segments reach back (`OperatorCameraPipeline.keptSegments`
/// seconds): Flussonic's archive playlist and archive preview built from them.
extension OperatorVideoService {
    /// `index-FROM-DURATION.m3u8`: the kept segments inside the window, as a finished recording
    /// (VOD, ENDLIST), so a player plays it to its end; 404 when none of it is kept.
    func archive(_ camera: OperatorCameraPipeline, newest: String, from: Int, seconds: Int) -> OperatorReply {
        let start = Date(timeIntervalSince1970: TimeInterval(from))
        let end = start.addingTimeInterval(TimeInterval(seconds))
        let inside = camera.recorded(upTo: newest).filter { $0.end > start && $0.start < end }
        guard !inside.isEmpty else { return Self.text(404, "nothing of that time is kept (about the last minute is)") }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-TARGETDURATION:2",
                     "#EXT-X-MEDIA-SEQUENCE:0"]
        for segment in inside {
            lines.append(String(format: "#EXTINF:%.3f,", segment.end.timeIntervalSince(segment.start)))
            lines.append("\(segment.name)?token=\(token)")
        }
        lines.append("#EXT-X-ENDLIST")
        return .bytes(status: 200, type: "application/vnd.apple.mpegurl", Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// `FROM-preview.mp4`: the key frame that begins the kept segment holding FROM (or, for a moment between
    /// two segments' times, the one before it); 404 when FROM is outside what is kept.
    func archivePreview(_ camera: OperatorCameraPipeline, newest: String, at: Int) -> OperatorReply {
        let moment = Date(timeIntervalSince1970: TimeInterval(at))
        let kept = camera.recorded(upTo: newest)
        guard let last = kept.last, moment < last.end, let segment = kept.last(where: { $0.start <= moment }) else {
            return Self.text(404, "nothing of that time is kept (about the last minute is)")
        }
        return preview(camera, segment: segment.name)
    }

    /// `archive-FROM-DURATION.mp4`: the kept segments inside the window muxed into one MP4 (the
    /// whole segments, as Flussonic cuts on key frames); 404 when none is kept.
    func archiveMP4(_ camera: OperatorCameraPipeline, newest: String, from: Int, seconds: Int) -> OperatorReply {
        let start = Date(timeIntervalSince1970: TimeInterval(from))
        let end = start.addingTimeInterval(TimeInterval(seconds))
        let inside = camera.recorded(upTo: newest).filter { $0.end > start && $0.start < end }
        guard !inside.isEmpty else { return Self.text(404, "nothing of that time is kept (about the last minute is)") }
        guard let mp4 = OperatorCameraPreview.mux(segments: inside.map(\.name), in: camera.folder.path) else {
            return Self.text(503, "the recording could not be made into an MP4")
        }
        return .bytes(status: 200, type: "video/mp4", mp4)
    }
}
