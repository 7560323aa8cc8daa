import Foundation

/// What `ffprobe` reads in a media file: its streams' kinds and codecs, and the length. Tests of
/// recorded clips use it as an outside judge (not the code that wrote the file).
package struct MediaProbe: Sendable, CustomStringConvertible {
    package struct Stream: Sendable {
        package var type: String
        package var codec: String
        package var duration: Double?
    }

    package var streams: [Stream]
    package var duration: Double?
    package var formatName: String

    package var hasAudio: Bool { streams.contains { $0.type == "audio" } }
    package var hasVideo: Bool { streams.contains { $0.type == "video" } }
    package var description: String {
        "\(formatName) \(duration.map { String(format: "%.2f s", $0) } ?? "?"): "
            + streams.map { "\($0.type)/\($0.codec)" }.joined(separator: ", ")
    }

    /// Runs `ffprobe` on `path`; throws when the tool is missing or the file is unreadable.
    package static func probe(_ path: String) async throws -> MediaProbe {
        let tool = try ExternalTool.path("ffprobe")
        let logs = URL(fileURLWithPath: NSTemporaryDirectory())
        let result = try await Subprocess.run(tool, ["-v", "error", "-show_entries",
                                                     "stream=codec_type,codec_name,duration:format=duration,format_name",
                                                     "-of", "json", path], logDirectory: logs)
        guard result.status == 0,
              let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("ffprobe cannot read \(path): \(result.stderr)")
        }
        let format = object["format"] as? [String: Any]
        let streams = (object["streams"] as? [[String: Any]] ?? []).map {
            Stream(type: $0["codec_type"] as? String ?? "?", codec: $0["codec_name"] as? String ?? "?",
                   duration: ($0["duration"] as? String).flatMap(Double.init))
        }
        return MediaProbe(streams: streams, duration: (format?["duration"] as? String).flatMap(Double.init),
                          formatName: format?["format_name"] as? String ?? "?")
    }
}
