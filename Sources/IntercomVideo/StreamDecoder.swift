import CFFmpeg
import IntercomImaging
#if canImport(Glibc)
import Glibc
#endif

/// FFmpeg's interrupt callback. C calls it, so it captures nothing: the stream's `InterruptState`
/// comes through `opaque`, kept alive by the decoder that owns the format context.
private let interruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<InterruptState>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
}

/// One stream's FFmpeg state: demuxer, decoder, scaler. It lives and dies on its stream's decode
/// thread (`assertOnThread`), so nothing in here is Sendable or locked; other threads reach it only
/// through `InterruptState`.
final class StreamDecoder {
    private let owner = pthread_self()
    private let source: VideoSource
    /// The size to scale to (nil: each frame's own), read per frame so a resize needs no reconnect.
    private let target: ScaleTarget
    private let interrupt: InterruptState
    /// Vets every URL the demuxer opens; lives as long as `format`, whose `opaque` points at it.
    private let urlGuard: StreamOpenGuard
    /// libavformat's functions, once `open` has loaded them.
    private var av: intercom_avformat?
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var scaler = RGBScaler()
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var videoIndex: Int32 = -1
    /// Seconds per timestamp tick of the video stream.
    private var timeBase = 0.0
    private var pacer = TimestampPacer()
    /// Option names FFmpeg did not recognise (a renamed option is silently ignored otherwise).
    private(set) var unrecognisedOptions: [String] = []

    convenience init(source: VideoSource, size: PixelSize?, interrupt: InterruptState) {
        self.init(source: source, target: ScaleTarget(size, fit: .exactly), interrupt: interrupt)
    }

    init(source: VideoSource, target: ScaleTarget, interrupt: InterruptState) {
        self.source = source
        self.target = target
        self.interrupt = interrupt
        urlGuard = StreamOpenGuard(source: source, interrupt: interrupt)
    }

    deinit { close() }

    /// Traps in debug builds when called off the thread that made this decoder: FFmpeg's contexts
    /// are not safe across threads.
    func assertOnThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(pthread_equal(owner, pthread_self()) != 0, "FFmpeg touched off its stream's decode thread",
               file: file, line: line)
    }

    /// Connects, sets the stream up and opens the video decoder; the first frame comes from `run`.
    func open() throws(VideoError) {
        assertOnThread()
        let url = try source.urlForFFmpeg()
        let av = try FFmpegLibrary.format(for: source.displayName)
        self.av = av
        guard let context = av.avformat_alloc_context() else { throw failure(.badData, "out of memory") }
        context.pointee.interrupt_callback = AVIOInterruptCB(
            callback: interruptCallback, opaque: Unmanaged.passUnretained(interrupt).toOpaque())
        urlGuard.install(on: context)
        var options = FFmpegOptions.forOpening(source, videoOnly: true)
        defer { av_dict_free(&options) }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        interrupt.arm(source.openTimeout)
        // On failure FFmpeg frees the context and sets `opened` to nil.
        let status = av.avformat_open_input(&opened, url, nil, &options)
        guard status >= 0, let opened else { throw openError(status) }
        format = opened
        unrecognisedOptions = FFmpegOptions.names(in: options)
        // RTSP: the SDP names the codec and the decoder learns the size from the first key frame,
        // so probing would only delay the first picture (and drop packets with nobuffer).
        if !source.isRTSP {
            interrupt.arm(source.openTimeout)
            let probed = av.avformat_find_stream_info(opened, nil)
            guard probed >= 0 else { throw openError(probed) }
        }
        try openDecoder(opened, av)
    }

    private func openDecoder(_ format: UnsafeMutablePointer<AVFormatContext>, _ av: intercom_avformat) throws(VideoError) {
        var decoder: UnsafePointer<AVCodec>?
        let index = av.av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let streams = format.pointee.streams,
              let stream = streams[Int(index)] else {
            throw failure(.badData, index == intercom_averror_decoder_not_found()
                          ? "its video codec is not supported by this FFmpeg" : "it has no video track")
        }
        videoIndex = index
        let base = stream.pointee.time_base
        timeBase = base.den != 0 ? Double(base.num) / Double(base.den) : 0
        // The panel's audio track (PCMA) and anything else cost nothing once discarded.
        for i in 0..<Int(format.pointee.nb_streams) where i != Int(index) {
            streams[i]?.pointee.discard = AVDISCARD_ALL
        }
        // Only the decoders a network stream may use (as FFmpeg's probing was held to them).
        let decoderName = decoder.pointee.name.map { String(cString: $0) } ?? "(unnamed)"
        if let refused = FFmpegOptions.codecRefusal(decoderName) { throw failure(.badData, refused) }
        guard let context = avcodec_alloc_context3(decoder) else { throw failure(.badData, "out of memory") }
        codec = context
        guard avcodec_parameters_to_context(context, stream.pointee.codecpar) >= 0 else {
            throw failure(.badData, "its video parameters are unreadable")
        }
        // One thread, low delay: frame threads would add a frame of latency each.
        context.pointee.thread_count = 1
        context.pointee.flags |= Int32(AV_CODEC_FLAG_LOW_DELAY)
        context.pointee.flags2 |= Int32(AV_CODEC_FLAG2_FAST)
        var decoderOptions: OpaquePointer?
        defer { av_dict_free(&decoderOptions) }
        av_dict_set(&decoderOptions, "codec_whitelist", FFmpegOptions.networkCodecs, 0)
        let status = avcodec_open2(context, decoder, &decoderOptions)
        guard status >= 0 else { throw failure(.badData, "the video decoder did not open (\(FFmpegLibrary.text(status)))") }
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else { throw failure(.badData, "out of memory") }
        self.packet = packet
        self.frame = frame
    }

    /// Reads and decodes until a stop is requested (returns) or the stream ends (throws `.ended`).
    func run(deliver: (RGBImage) -> Void) throws(VideoError) {
        assertOnThread()
        guard let av, let format, let codec, let packet, let frame else { throw failure(.badData, "not open") }
        while !interrupt.isStopRequested {
            interrupt.arm(source.readTimeout)
            let status = av.av_read_frame(format, packet)
            if status < 0 {
                if interrupt.isStopRequested { return }
                if let refused = urlGuard.explanation(of: status) { throw failure(.badData, refused) }
                if status == intercom_averror_eof() {
                    // Files and one-frame previews keep their last frames inside the decoder.
                    avcodec_send_packet(codec, nil)
                    receiveFrames(codec, frame, deliver)
                    throw failure(.ended, "the server closed it")
                }
                // Our deadline and the socket timeout (the same length) race: both mean silence.
                if interrupt.deadlineHit || status == intercom_averror(ETIMEDOUT) {
                    throw failure(.ended, "nothing came for \(FFmpegLibrary.seconds(source.readTimeout))")
                }
                throw failure(.ended, FFmpegLibrary.text(status))
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == videoIndex else { continue }
            // A damaged packet is refused and the decoder recovers at the next key frame: go on.
            _ = avcodec_send_packet(codec, packet)
            receiveFrames(codec, frame, deliver)
        }
    }

    private func receiveFrames(_ codec: UnsafeMutablePointer<AVCodecContext>, _ frame: UnsafeMutablePointer<AVFrame>,
                               _ deliver: (RGBImage) -> Void) {
        while avcodec_receive_frame(codec, frame) >= 0 {
            defer { av_frame_unref(frame) }
            holdUntilDue(frame)
            if interrupt.isStopRequested { return }
            if let image = scaled(frame) { deliver(image) }
        }
    }

    /// Paces everything but RTSP by the frame's timestamp (`TimestampPacer`), in short sleeps so
    /// that a stop request is seen at once.
    private func holdUntilDue(_ frame: UnsafeMutablePointer<AVFrame>) {
        guard !source.isRTSP, timeBase > 0 else { return }
        let stamp = frame.pointee.best_effort_timestamp
        guard stamp != intercom_av_nopts_value() else { return }
        var wait = pacer.delay(for: Double(stamp) * timeBase)
        while wait > 0, !interrupt.isStopRequested {
            let step = min(wait, 0.05)
            usleep(UInt32(step * 1e6))
            wait -= step
        }
    }

    /// Straight to the requested size in one pass (never to full size first).
    private func scaled(_ frame: UnsafeMutablePointer<AVFrame>) -> RGBImage? {
        let source = frame.pointee
        guard source.width > 0, source.height > 0 else { return nil }
        let aspect = source.sample_aspect_ratio
        let size = target.output(width: Int(source.width), height: Int(source.height),
                                 sampleAspect: aspect.den > 0 ? Double(aspect.num) / Double(aspect.den) : 1)
        guard size.width > 0, size.height > 0 else { return nil }
        return scaler.scale(frame, to: size)
    }

    /// Frees everything; a pending RTSP TEARDOWN is cut short by the stop flag.
    func close() {
        assertOnThread()
        scaler.free()
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        av?.avformat_close_input(&format)
    }

    private enum Kind { case unavailable, ended, badData }

    private func failure(_ kind: Kind, _ reason: String) -> VideoError {
        switch kind {
        case .unavailable: return .unavailable(stream: source.displayName, reason: reason)
        case .ended: return .ended(stream: source.displayName, reason: reason)
        case .badData: return .badData(stream: source.displayName, reason: reason)
        }
    }

    /// A URL the guard refused comes first (FFmpeg then says only "exit"); FFmpeg reports a timeout
    /// during RTSP setup as invalid data, so our own deadline flag decides.
    private func openError(_ status: Int32) -> VideoError {
        if let refused = urlGuard.explanation(of: status) { return failure(.badData, refused) }
        if status == intercom_averror_http_unauthorized() || status == intercom_averror_http_forbidden() {
            return .authRefused(stream: source.displayName)
        }
        if interrupt.deadlineHit || status == intercom_averror(ETIMEDOUT) {
            return failure(.unavailable, "no answer within \(FFmpegLibrary.seconds(source.openTimeout)): "
                           + "check that the panel is powered and reachable")
        }
        if status == intercom_averror(ECONNREFUSED) {
            return failure(.unavailable, "connection refused: check the host and port")
        }
        if status == intercom_averror_http_not_found() || status == intercom_averror_stream_not_found() {
            return failure(.unavailable, "the server has no such stream: check the path")
        }
        if let refused = FFmpegOptions.formatRefusal(status) { return failure(.badData, refused) }
        return failure(.unavailable, FFmpegLibrary.text(status))
    }
}
