import CFFmpeg

/// Process-wide FFmpeg setup and small helpers around its C error codes.
enum FFmpegLibrary {
    /// Once per process: networking for RTSP/HTTP, and FFmpeg's own logging off (it writes to
    /// stderr, under a TUI, and may echo URLs; errors reach the user as `VideoError` instead).
    private static let prepared: Void = {
        avformat_network_init()
        av_log_set_level(AV_LOG_QUIET)
    }()

    static func prepare() { _ = prepared }

    /// FFmpeg's message for an error code, e.g. "Connection refused".
    static func text(_ status: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard av_strerror(status, &buffer, buffer.count) == 0 else { return "error \(status)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "5 s", "0.5 s".
    static func seconds(_ duration: Duration) -> String {
        let (s, atto) = duration.components
        let tenths = atto / 100_000_000_000_000_000
        return tenths == 0 ? "\(s) s" : "\(s).\(tenths) s"
    }
}
