import CFFmpeg

/// The demuxer options for a source, and a look at which ones FFmpeg left unused.
enum FFmpegOptions {
    /// An `AVDictionary` the caller frees with `av_dict_free`, with the protocols FFmpeg may use
    /// beneath the source. `videoOnly`: a player, which discards the audio anyway (a recorder keeps it).
    static func forOpening(_ source: VideoSource, videoOnly: Bool = false) -> OpaquePointer? {
        var options: OpaquePointer?
        let readMicroseconds = String(microseconds(source.readTimeout))
        var pairs: [(String, String)] = [
            // Small probes: the first picture matters more than a perfect guess of the stream.
            ("probesize", "32768"),
            ("analyzeduration", "500000"),
        ]
        if source.isRTSP {
            pairs += [
                ("protocol_whitelist", rtspProtocols),
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
                ("rw_timeout", readMicroseconds),
                // Live HLS: start at the newest segment, not three back.
                ("live_start_index", "-1"),
            ]
        }
        for (key, value) in pairs { av_dict_set(&options, key, value, 0) }
        return options
    }

    /// The protocols FFmpeg may use under an RTSP stream: its control connection (tcp, tls for
    /// rtsps) and RTP over UDP, should a server insist. No http, file or anything that reads
    /// something else.
    static let rtspProtocols = "rtsp,rtp,udp,tcp,tls"
    /// Under an HTTP(S) stream or HLS playlist: http and https over tcp/tls, crypto (AES-128 segments),
    /// hls, and httpproxy (https through `http_proxy`). Which hosts: `StreamOpenGuard`.
    static let httpProtocols = "http,https,tls,tcp,crypto,hls,httpproxy"
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
