import CFFmpeg
import Foundation

/// Process-wide FFmpeg setup and small helpers around its C error codes.
enum FFmpegLibrary {
    /// libavformat's functions (C function pointers, immutable once filled).
    struct Format: @unchecked Sendable {
        let c: intercom_avformat
    }

    /// Once per process, when the first stream or clip is opened: libavformat loaded (dlopen),
    /// networking for RTSP/HTTP, and FFmpeg's own logging off (it writes to stderr, under a TUI,
    /// and may echo URLs; errors reach the user as `VideoError` instead).
    private static let loaded: Result<Format, FFmpegLoadError> = {
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
    /// tests name a library that is not there.
    static func open(_ soname: String) -> Result<Format, FFmpegLoadError> {
        let table = UnsafeMutablePointer<intercom_avformat>.allocate(capacity: 1)
        defer { table.deallocate() }
        var error = [CChar](repeating: 0, count: 512)
        guard intercom_avformat_open(soname, table, &error, error.count) == 0 else {
            return .failure(FFmpegLoadError(soname: soname, reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                                           as: UTF8.self)))
        }
        return .success(Format(c: table.move()))
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

/// libavformat could not be loaded: what failed and the Debian package that brings it.
struct FFmpegLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    let soname: String
    let reason: String

    /// "libavformat.so.59" → "libavformat59", Debian's name for the package holding that soname.
    var package: String { soname.replacingOccurrences(of: ".so.", with: "") }

    var description: String {
        "live video needs FFmpeg's libavformat, which could not be loaded (\(reason)): install the Debian package \(package)"
    }
}
