import CFFmpeg
import IntercomBase
#if canImport(Glibc)
import Glibc
#endif

/// The demuxer options for a source, and a look at which ones FFmpeg left unused.
enum FFmpegOptions {
    /// An `AVDictionary` the caller frees with `av_dict_free`, with the protocols FFmpeg may use
    /// beneath the source. `videoOnly`: a player, which discards the audio anyway (a recorder keeps it).
    static func forOpening(_ source: VideoSource, videoOnly: Bool = false) -> OpaquePointer? {
        var options: OpaquePointer?
        for (key, value) in pairs(for: source, videoOnly: videoOnly) { av_dict_set(&options, key, value, 0) }
        return options
    }

    /// The options `forOpening` sets, in order.
    static func pairs(for source: VideoSource, videoOnly: Bool = false) -> [(String, String)] {
        let readMicroseconds = String(microseconds(source.readTimeout))
        var pairs: [(String, String)] = [
            // Small probes: the first picture matters more than a perfect guess of the stream.
            ("probesize", "32768"),
            ("analyzeduration", "500000"),
        ]
        // What may parse a stream from the network: each demuxer and decoder FFmpeg carries is
        // code a hostile server could aim a crafted stream at, so only those we play are allowed.
        // The HLS demuxer hands both lists on to its segments' demuxer.
        pairs.append(("codec_whitelist", networkCodecs))
        if source.isRTSP {
            pairs += [
                ("protocol_whitelist", rtspProtocols),
                ("format_whitelist", rtspFormats),
                // Interleaved TCP: no UDP ports to open, nothing lost or reordered.
                ("rtsp_transport", "tcp"),
                ("reorder_queue_size", "0"),
                // Socket I/O timeout in µs (FFmpeg 5's name; older ones called it stimeout).
                ("timeout", readMicroseconds),
            ]
            // Only the picture is set up: the panel's audio track (PCMA) would cost a SETUP round
            // trip before PLAY, and its packets afterwards, for nothing a player plays.
            if videoOnly { pairs.append(("allowed_media_types", "video")) }
        } else {
            pairs += [
                ("protocol_whitelist", httpProtocols),
                ("format_whitelist", httpFormats),
                ("rw_timeout", readMicroseconds),
                // Live HLS: start at the newest segment, not three back.
                ("live_start_index", "-1"),
            ]
        }
        return pairs
    }

    /// The protocols FFmpeg may use under an RTSP stream: its control connection (tcp, tls for
    /// rtsps) and RTP over UDP, should a server insist. No http, file or anything that reads
    /// something else.
    static let rtspProtocols = "rtsp,rtp,udp,tcp,tls"
    /// Under an HTTP(S) stream or HLS playlist: http and https over tcp/tls, crypto (AES-128 segments),
    /// hls, and httpproxy (https through `http_proxy`). Which hosts: `StreamOpenGuard`.
    static let httpProtocols = "http,https,tls,tcp,crypto,hls,httpproxy"
    /// The demuxer of a panel's stream: RTSP (its RTP payloads are unpacked by RTSP's own code).
    static let rtspFormats = "rtsp"
    /// Under an HTTP(S) stream: HLS playlists, their MPEG-TS and fragmented-MP4 segments, and
    /// MP4 files (an operator's `preview.mp4`, archive downloads). `mov` is the MP4 demuxer's name.
    static let httpFormats = "hls,mpegts,mov"
    /// The decoders a network stream may open: the pictures panels and operators' cameras send
    /// (H.264, H.265, MJPEG) and the sound beside them (AAC from cameras, G.711 from panels: the
    /// recorder keeps it, and probing a stream opens its decoder).
    static let networkCodecs = "h264,hevc,mjpeg,aac,pcm_alaw,pcm_mulaw"
    /// The containers named in a refusal, as a user knows them.
    static let playedFormats = "RTSP, HLS with MPEG-TS or MP4 segments, MP4"

    /// Why FFmpeg refused to open a network stream, when its status is the one the format
    /// whitelist gives: FFmpeg says only "invalid argument" and never names the format it found.
    static func formatRefusal(_ status: Int32) -> String? {
        guard status == intercom_averror(EINVAL) else { return nil }
        return "its container is not one played from the network (\(playedFormats))"
    }

    /// Why a decoder may not be opened for a network stream; nil when it may.
    static func codecRefusal(_ name: String) -> String? {
        guard !networkCodecs.split(separator: ",").contains(Substring(name)) else { return nil }
        return "its video codec \(TerminalSafe.escape(String(name.prefix(32)))) is not one played from the network "
            + "(H.264, H.265, MJPEG)"
    }

    /// Under a recorded clip: the file itself and nothing else.
    static let fileProtocols = "file"

    /// The keys still in the dictionary after opening: those FFmpeg did not recognise.
    static func names(in options: OpaquePointer?) -> [String] {
        var names: [String] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(options, "", entry, Int32(AV_DICT_IGNORE_SUFFIX)) {
            if let key = next.pointee.key { names.append(String(cString: key)) }
            entry = next
        }
        return names
    }

    private static func microseconds(_ duration: Duration) -> Int64 {
        let (s, atto) = duration.components
        return s * 1_000_000 + atto / 1_000_000_000_000
    }
}
