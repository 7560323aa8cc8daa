import CFFmpeg
import Foundation
import IntercomImaging

/// A recorded clip read back for `intercom log --play`: its pictures decoded one at a time with
/// their times (the caller paces them: a file decodes hundreds of frames a second), scaled to
/// the size asked. Not Sendable: one thread opens, reads and closes it.
public final class ClipFile {
    public let path: String
    /// The picture size stored in the clip.
    public let videoSize: PixelSize
    /// libavformat's functions (loaded by the first clip or stream).
    private let av: intercom_avformat
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var scaler = RGBScaler()
    private let videoIndex: Int32
    private let timeBase: AVRational
    private var draining = false
    private var ended = false

    public init(path: String) throws(VideoError) {
        av = try FFmpegLibrary.format(for: path)
        self.path = path
        let opened = try ClipFile.openFile(path, av)
        format = opened
        var decoder: UnsafePointer<AVCodec>?
        let index = av.av_find_best_stream(opened, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = opened.pointee.streams[Int(index)] else {
            av.avformat_close_input(&format)
            throw .badData(stream: path, reason: "it has no video track this FFmpeg can decode")
        }
        videoIndex = index
        timeBase = stream.pointee.time_base
        for i in 0..<Int(opened.pointee.nb_streams) where i != Int(index) { opened.pointee.streams[i]?.pointee.discard = AVDISCARD_ALL }
        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let codec, packet != nil, frame != nil,
              avcodec_parameters_to_context(codec, stream.pointee.codecpar) >= 0,
              avcodec_open2(codec, decoder, nil) >= 0 else {
            videoSize = PixelSize(width: 0, height: 0)
            close()
            throw .badData(stream: path, reason: "its video decoder did not open")
        }
        videoSize = PixelSize(width: Int(codec.pointee.width), height: Int(codec.pointee.height))
    }

    deinit { close() }

    public func close() {
        scaler.free()
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codec)
        av.avformat_close_input(&format)
    }

    /// The next picture, scaled to `size`, and its time from the clip's start in seconds; nil at the end.
    public func nextFrame(size: PixelSize) -> (image: RGBImage, seconds: Double)? {
        guard let format, let codec, let packet, let frame else { return nil }
        while !ended {
            let received = avcodec_receive_frame(codec, frame)
            if received >= 0 {
                defer { av_frame_unref(frame) }
                let stamp = frame.pointee.best_effort_timestamp
                let seconds = stamp == Int64.min ? 0 : Double(stamp) * av_q2d(timeBase)
                guard let image = scaled(frame, to: size) else { continue }
                return (image, seconds)
            }
            if received == intercom_averror_eof() { ended = true; break }
            if draining { ended = true; break }
            if av.av_read_frame(format, packet) < 0 {
                // The last pictures are still inside the decoder.
                draining = true
                avcodec_send_packet(codec, nil)
                continue
            }
            if packet.pointee.stream_index == videoIndex { _ = avcodec_send_packet(codec, packet) }
            av_packet_unref(packet)
        }
        return nil
    }

    private func scaled(_ frame: UnsafeMutablePointer<AVFrame>, to size: PixelSize) -> RGBImage? {
        scaler.scale(frame, to: size)
    }

    static func openFile(_ path: String, _ av: intercom_avformat) throws(VideoError) -> UnsafeMutablePointer<AVFormatContext> {
        var opened: UnsafeMutablePointer<AVFormatContext>?
        // A clip is a local file and opens nothing else (no `concat:` or URL in a path).
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", FFmpegOptions.fileProtocols, 0)
        defer { av_dict_free(&options) }
        let status = av.avformat_open_input(&opened, path, nil, &options)
        guard status >= 0, let opened else {
            throw .unavailable(stream: path, reason: FFmpegLibrary.text(status))
        }
        guard av.avformat_find_stream_info(opened, nil) >= 0 else {
            var closing: UnsafeMutablePointer<AVFormatContext>? = opened
            av.avformat_close_input(&closing)
            throw .badData(stream: path, reason: "its streams could not be read")
        }
        return opened
    }
}
