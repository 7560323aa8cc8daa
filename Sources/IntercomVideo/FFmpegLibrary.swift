import CFFmpeg
import Foundation
import IntercomBase

/// Process-wide FFmpeg setup and small helpers around its C error codes.
enum FFmpegLibrary {
    /// libavformat's functions (C function pointers, immutable once filled).
    typealias Format = DynamicLibrary.Table<intercom_avformat>

    /// Once per process, when the first stream or clip is opened: libavformat loaded (dlopen),
    /// networking for RTSP/HTTP, and FFmpeg's own logging off (it writes to stderr, under a TUI,
    /// and may echo URLs; errors reach the user as `VideoError` instead).
    private static let loaded: Result<Format, DynamicLibraryError> = {
        av_log_set_level(AV_LOG_QUIET)
        let result = open(String(cString: intercom_avformat_soname()))
        if case .success(let format) = result { _ = format.c.avformat_network_init() }
        return result
    }()

    /// libavformat's functions, or why `stream` cannot be played: the library is not installed.
    static func format(for stream: String) throws(VideoError) -> intercom_avformat {
        switch loaded {
        case .success(let format): return format.c
        case .failure(let error): throw .unavailable(stream: stream, reason: error.description)
        }
    }

    /// Loads `soname` without keeping it as the process's library: `format(for:)` uses it once;
    /// tests name a library that is not there. Debian names the package after the soname:
    /// libavformat.so.59 is in libavformat59.
    static func open(_ soname: String) -> Result<Format, DynamicLibraryError> {
        DynamicLibrary.load(.init(soname: soname, purpose: "Live video",
                                  package: soname.replacingOccurrences(of: ".so.", with: "")), intercom_avformat_open)
    }

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
