import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// FFmpeg's `AVFormatContext.io_open`: every URL a demuxer opens after the first (an HLS playlist's
/// variants, segments and keys) comes through here. C calls it, so it captures nothing: the
/// stream's guard comes through the context's `opaque`, which FFmpeg leaves to its user. A context
/// without one (none of ours) opens nothing.
private let guardedOpen: @convention(c) (UnsafeMutablePointer<AVFormatContext>?,
                                         UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                                         UnsafePointer<CChar>?, Int32,
                                         UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = { context, pb, url, flags, options in
    guard let context, let opaque = context.pointee.opaque, let url else { return intercom_averror(EPERM) }
    return Unmanaged<StreamOpenGuard>.fromOpaque(opaque).takeUnretainedValue()
        .open(context, pb, url, flags, options)
}

/// Holds one stream's format context to `StreamURLGate`: a URL off the stream's own scheme, host
/// and port is refused before anything is connected or read, the stream is cut short (the
/// interrupt callback), and the failure says what was refused. Allowed URLs go to FFmpeg's own
/// `io_open`, saved at `install`; its `io_close`/`io_close2` stay, as they match what it opens.
/// Lives on the stream's thread, as long as the context (its owner keeps it).
final class StreamOpenGuard {
    private var gate: StreamURLGate
    private let interrupt: InterruptState
    private let isPlaylist: Bool
    private var chained: (@convention(c) (UnsafeMutablePointer<AVFormatContext>?,
                                          UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                                          UnsafePointer<CChar>?, Int32,
                                          UnsafeMutablePointer<OpaquePointer?>?) -> Int32)?
    /// What was refused first (the one the message names; the stream stops there).
    private(set) var refused: String?
    /// The stream's own URL came back from its server.
    private var entryOpened = false
    /// URLs other than playlists the demuxer was allowed to try (segments, keys).
    private var segmentsTried = 0
    /// The first address whose answer to a segment request or a playlist's reload FFmpeg's http
    /// gave up on with a bare I/O error: what a redirect it was not allowed to follow (or a status
    /// it knows no name for) gives.
    private var unfollowed: (address: String, request: Request)?
    enum Request { case segment, reload }

    init(source: VideoSource, interrupt: InterruptState) {
        gate = StreamURLGate(url: source.url)
        self.interrupt = interrupt
        isPlaylist = Self.isPlaylist(source.url)
    }

    /// Before `avformat_open_input`, on a context from `avformat_alloc_context` (whose `io_open`
    /// is FFmpeg's default, the one chained to).
    func install(on context: UnsafeMutablePointer<AVFormatContext>) {
        chained = context.pointee.io_open
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.io_open = guardedOpen
    }

    fileprivate func open(_ context: UnsafeMutablePointer<AVFormatContext>,
                          _ pb: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                          _ url: UnsafePointer<CChar>, _ flags: Int32,
                          _ options: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
        guard let chained else { return intercom_averror(EPERM) }
        let text = String(cString: url)
        // The stream's own URL (FFmpeg's default io_open tells it the same way).
        let isEntry = context.pointee.url.map { strcmp($0, url) == 0 } ?? false
        let what = flags & AVIO_FLAG_WRITE != 0 ? "a file to write" : gate.refusal(of: text)
        if let what {
            if refused == nil { refused = what }
            interrupt.cutShort()
            return intercom_averror(EPERM)
        }
        // The stream's own URL opened the first time may redirect (an operator handing the
        // stream to one of its nodes). Nothing after it may: not a segment, a key, a variant, nor
        // a live playlist's reload (the same URL again, every few seconds): FFmpeg's http follows
        // redirects by itself, unseen here, and a reload sent elsewhere would move the stream to
        // another host. A playlist reloaded over a kept-alive connection inherits this.
        let firstEntry = isEntry && !entryOpened
        if !firstEntry {
            if !isEntry && !Self.isPlaylist(text) { segmentsTried += 1 }
            if let options { av_dict_set(options, "max_redirects", "0", 0) }
        }
        let status = chained(context, pb, url, flags, options)
        if !firstEntry, status == intercom_averror(EIO), unfollowed == nil {
            unfollowed = (StreamAddress(text).hostAndPort, isEntry ? .reload : .segment)
        }
        if firstEntry, status >= 0 {
            entryOpened = true
            if let opened = pb?.pointee { admitRedirect(of: opened) }
        }
        return status
    }

    /// Segments named relative to a redirected playlist are on the address it was redirected to.
    private func admitRedirect(of opened: UnsafeMutablePointer<AVIOContext>) {
        var location: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(opened, "location", AV_OPT_SEARCH_CHILDREN, &location) >= 0, let location else { return }
        defer { av_free(location) }
        gate.admitRedirect(to: String(cString: location))
    }

    /// Why the stream failed, when the guard knows better than FFmpeg's status: it refused a URL
    /// (`status` is then FFmpeg's "exit"); a segment's server answered with a redirect, not followed;
    /// or a playlist came back naming no segment that could be fetched (FFmpeg's HLS demuxer refuses
    /// `concat:`, `subfile:`, `data:` and odd extensions itself, before `io_open`). The last two end
    /// in FFmpeg's "invalid data" (no segment could be loaded) or "I/O error".
    func explanation(of status: Int32) -> String? {
        let allowed = "only \(gate.allowedOrigins) is fetched"
        if let refused { return "\(isPlaylist ? "its playlist" : "it") points at \(refused), which is not fetched (\(allowed))" }
        guard status == intercom_averror_invaliddata() || status == intercom_averror(EIO) else { return nil }
        if let (address, request) = unfollowed {
            switch request {
            case .segment:
                return "a segment request to \(address) was redirected or failed (redirects from segments are not followed)"
            case .reload:
                return "a reload of its playlist from \(address) was redirected or failed "
                    + "(a playlist is reloaded only from where it was first fetched)"
            }
        }
        if isPlaylist, entryOpened, segmentsTried == 0 {
            return "its playlist names no segment that may be fetched (\(allowed))"
        }
        return nil
    }

    /// `….m3u8` / `….m3u`, the query aside: how operators' servers name playlists.
    private static func isPlaylist(_ url: String) -> Bool {
        let path = url.prefix { $0 != "?" && $0 != "#" }.lowercased()
        return path.hasSuffix(".m3u8") || path.hasSuffix(".m3u")
    }
}
