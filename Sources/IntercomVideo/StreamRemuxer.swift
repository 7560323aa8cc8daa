import CFFmpeg
import Foundation

/// FFmpeg's interrupt callback for a recording (C calls it: no captures; the state comes through `opaque`).
private let remuxInterrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<InterruptState>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
}

/// One recording's FFmpeg state: the input demuxer and the Matroska muxer, packets copied from
/// one to the other with their timestamps moved to start at the first key frame. Lives and dies
/// on `StreamRecorder`'s thread.
final class StreamRemuxer {
    private let source: VideoSource
    private let path: String
    private let maxLength: Duration
    private let interrupt: InterruptState
    /// Vets every URL the demuxer opens; lives as long as `input`, whose `opaque` points at it.
    private let urlGuard: StreamOpenGuard
    /// libavformat's functions, once `openInput` has loaded them.
    private var av: intercom_avformat?
    private var input: UnsafeMutablePointer<AVFormatContext>?
    private var output: UnsafeMutablePointer<AVFormatContext>?
    /// Input stream index → output stream index.
    private var mapping: [Int32: Int32] = [:]
    private var videoIndex: Int32 = -1
    /// FFmpeg's AV_NOPTS_VALUE (a cast macro Swift does not import): INT64_MIN.
    private let noTimestamp = Int64.min
    private let microseconds = AVRational(num: 1, den: 1_000_000)

    init(source: VideoSource, path: String, maxLength: Duration, interrupt: InterruptState) {
        self.source = source
        self.path = path
        self.maxLength = maxLength
        self.interrupt = interrupt
        urlGuard = StreamOpenGuard(source: source, interrupt: interrupt)
    }

    deinit {
        guard let av else { return }
        av.avformat_close_input(&input)
        if let output {
            if output.pointee.pb != nil { _ = av.avio_closep(&output.pointee.pb) }
            av.avformat_free_context(output)
        }
    }

    func run() -> StreamRecorder.Outcome {
        var outcome = StreamRecorder.Outcome(seconds: 0, videoPackets: 0, audioPackets: 0, error: nil)
        do {
            try openInput()
            try openOutput(withAudio: true)
        } catch {
            outcome.error = interrupt.isStopRequested ? nil : error
            return outcome
        }
        outcome.error = copy(into: &outcome)
        if let output, let av { _ = av.av_write_trailer(output) }
        return outcome
    }

    private func openInput() throws(VideoError) {
        let url = try source.urlForFFmpeg()
        let av = try FFmpegLibrary.format(for: source.displayName)
        self.av = av
        guard let context = av.avformat_alloc_context() else { throw .badData(stream: source.displayName, reason: "out of memory") }
        context.pointee.interrupt_callback = AVIOInterruptCB(callback: remuxInterrupt,
                                                             opaque: Unmanaged.passUnretained(interrupt).toOpaque())
        urlGuard.install(on: context)
        var options = FFmpegOptions.forOpening(source)
        defer { av_dict_free(&options) }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        interrupt.arm(source.openTimeout)
        let status = av.avformat_open_input(&opened, url, nil, &options)
        guard status >= 0, let opened else {
            if let refused = urlGuard.explanation(of: status) { throw .badData(stream: source.displayName, reason: refused) }
            if status == intercom_averror_http_unauthorized() || status == intercom_averror_http_forbidden() {
                throw .authRefused(stream: source.displayName)
            }
            if let refused = FFmpegOptions.formatRefusal(status) { throw .badData(stream: source.displayName, reason: refused) }
            let reason = interrupt.deadlineHit ? "no answer within \(FFmpegLibrary.seconds(source.openTimeout))"
                                               : FFmpegLibrary.text(status)
            throw .unavailable(stream: source.displayName, reason: reason)
        }
        input = opened
        // The muxer wants the picture size, which an RTSP SDP does not carry: probe briefly (the
        // probed packets are kept and written, unlike the live player's `nobuffer` start).
        interrupt.arm(source.openTimeout)
        let probed = av.avformat_find_stream_info(opened, nil)
        guard probed >= 0 else {
            throw .badData(stream: source.displayName, reason: urlGuard.explanation(of: probed) ?? "its streams could not be read")
        }
        videoIndex = av.av_find_best_stream(opened, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard videoIndex >= 0 else { throw .badData(stream: source.displayName, reason: "it has no video track") }
    }

    /// Matroska with the video and, when it can carry it, the first audio track; a muxer that
    /// refuses the audio (an odd codec) gets the video alone.
    private func openOutput(withAudio: Bool) throws(VideoError) {
        guard let av, let input, let streams = input.pointee.streams else { return }
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard av.avformat_alloc_output_context2(&context, nil, "matroska", path) >= 0, let context else {
            throw .badData(stream: source.displayName, reason: "the Matroska muxer is missing from this FFmpeg")
        }
        mapping = [:]
        let audioIndex = withAudio ? av.av_find_best_stream(input, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0) : -1
        for index in [videoIndex, audioIndex] where index >= 0 {
            guard let stream = streams[Int(index)], let copy = av.avformat_new_stream(context, nil) else { continue }
            avcodec_parameters_copy(copy.pointee.codecpar, stream.pointee.codecpar)
            copy.pointee.codecpar.pointee.codec_tag = 0
            copy.pointee.time_base = stream.pointee.time_base
            mapping[index] = copy.pointee.index
        }
        for i in 0..<Int(input.pointee.nb_streams) where mapping[Int32(i)] == nil {
            streams[i]?.pointee.discard = AVDISCARD_ALL
        }
        var status = av.avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
        if status >= 0 { status = av.avformat_write_header(context, nil) }
        guard status >= 0 else {
            if context.pointee.pb != nil { _ = av.avio_closep(&context.pointee.pb) }
            av.avformat_free_context(context)
            if withAudio && audioIndex >= 0 { return try openOutput(withAudio: false) }
            throw .badData(stream: source.displayName, reason: "cannot write \(path): \(FFmpegLibrary.text(status))")
        }
        output = context
    }

    /// Copies packets until stopped, full or failed; returns the failure, if any.
    private func copy(into outcome: inout StreamRecorder.Outcome) -> VideoError? {
        guard let av, let input, let output, let packet = av_packet_alloc() else { return nil }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        // The first key frame's time, in µs: every stream's timestamps start there.
        var origin: Int64?
        let limit = Double(maxLength.components.seconds)
        while !interrupt.isStopRequested {
            interrupt.arm(source.readTimeout)
            let status = av.av_read_frame(input, packet)
            if status < 0 {
                if interrupt.isStopRequested || status == intercom_averror_eof() { return nil }
                if let refused = urlGuard.explanation(of: status) { return .badData(stream: source.displayName, reason: refused) }
                return .ended(stream: source.displayName, reason: interrupt.deadlineHit
                              ? "nothing came for \(FFmpegLibrary.seconds(source.readTimeout))" : FFmpegLibrary.text(status))
            }
            defer { av_packet_unref(packet) }
            let index = packet.pointee.stream_index
            guard let target = mapping[index], let inStream = input.pointee.streams[Int(index)],
                  let outStream = output.pointee.streams[Int(target)] else { continue }
            if packet.pointee.pts == noTimestamp { packet.pointee.pts = packet.pointee.dts }
            if packet.pointee.dts == noTimestamp { packet.pointee.dts = packet.pointee.pts }
            guard packet.pointee.pts != noTimestamp else { continue }
            let inBase = inStream.pointee.time_base
            let time = av_rescale_q(packet.pointee.pts, inBase, microseconds)
            if origin == nil {
                // A clip starts on a picture it can show.
                guard index == videoIndex, packet.pointee.flags & AV_PKT_FLAG_KEY != 0 else { continue }
                origin = time
            }
            guard let origin, time >= origin else { continue }
            let shift = av_rescale_q(origin, microseconds, inBase)
            packet.pointee.pts -= shift
            packet.pointee.dts = max(0, packet.pointee.dts - shift)
            let seconds = Double(time - origin) / 1_000_000
            if seconds > limit { return nil }
            av_packet_rescale_ts(packet, inBase, outStream.pointee.time_base)
            packet.pointee.stream_index = target
            packet.pointee.pos = -1
            // A packet the muxer refuses (a timestamp going back) is dropped, not the recording.
            guard av.av_interleaved_write_frame(output, packet) >= 0 else { continue }
            outcome.seconds = max(outcome.seconds, seconds)
            if index == videoIndex { outcome.videoPackets += 1 } else { outcome.audioPackets += 1 }
        }
        return nil
    }
}
