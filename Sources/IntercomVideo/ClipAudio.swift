import CFFmpeg
import Foundation

/// A clip's sound as a 16-bit PCM WAV, for a player that takes WAV files (liblinphone's). The
/// samples are decoded and converted by hand (16-bit or float, packed or planar: what the
/// recorders write, Opus and G.711 decoded), so no resampling library is needed: the WAV keeps
/// the clip's own rate and channels.
public enum ClipAudio {
    /// Writes the first audio track of `clip` to `wav`; false when the clip has none.
    public static func extract(_ clip: String, to wav: String) throws(VideoError) -> Bool {
        let av = try FFmpegLibrary.format(for: clip)
        var format: UnsafeMutablePointer<AVFormatContext>? = try ClipFile.openFile(clip, av)
        defer { av.avformat_close_input(&format) }
        guard let opened = format else { return false }
        var decoder: UnsafePointer<AVCodec>?
        let index = av.av_find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = opened.pointee.streams[Int(index)] else { return false }
        var codec = avcodec_alloc_context3(decoder)
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer {
            av_frame_free(&frame)
            av_packet_free(&packet)
            avcodec_free_context(&codec)
        }
        guard let codec, let packet, let frame, avcodec_parameters_to_context(codec, stream.pointee.codecpar) >= 0,
              avcodec_open2(codec, decoder, nil) >= 0 else { return false }
        var samples: [Int16] = []
        var rate = Int(codec.pointee.sample_rate)
        var channels = Int(codec.pointee.ch_layout.nb_channels)
        func drain() {
            while avcodec_receive_frame(codec, frame) >= 0 {
                rate = Int(frame.pointee.sample_rate)
                channels = Int(frame.pointee.ch_layout.nb_channels)
                append(frame, to: &samples)
                av_frame_unref(frame)
            }
        }
        while av.av_read_frame(opened, packet) >= 0 {
            if packet.pointee.stream_index == index { _ = avcodec_send_packet(codec, packet) }
            av_packet_unref(packet)
            drain()
        }
        avcodec_send_packet(codec, nil)
        drain()
        guard rate > 0, channels > 0, !samples.isEmpty else { return false }
        do {
            try wavFile(samples, rate: rate, channels: channels).write(to: URL(fileURLWithPath: wav))
        } catch {
            throw .badData(stream: clip, reason: "cannot write \(wav): \(error.localizedDescription)")
        }
        return true
    }

    /// Interleaved 16-bit samples from a decoded frame of any of the four common layouts.
    private static func append(_ frame: UnsafeMutablePointer<AVFrame>, to samples: inout [Int16]) {
        let count = Int(frame.pointee.nb_samples)
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let planes = frame.pointee.extended_data
        guard count > 0, channels > 0, let planes else { return }
        func plane(_ c: Int) -> UnsafeMutablePointer<UInt8>? { planes[c] }
        for i in 0..<count {
            for c in 0..<channels {
                let value: Int16
                switch format {
                case AV_SAMPLE_FMT_S16:
                    value = plane(0).map { UnsafeRawPointer($0).load(fromByteOffset: (i * channels + c) * 2, as: Int16.self) } ?? 0
                case AV_SAMPLE_FMT_S16P:
                    value = plane(c).map { UnsafeRawPointer($0).load(fromByteOffset: i * 2, as: Int16.self) } ?? 0
                case AV_SAMPLE_FMT_FLT:
                    value = pcm(plane(0).map { UnsafeRawPointer($0).load(fromByteOffset: (i * channels + c) * 4, as: Float.self) } ?? 0)
                case AV_SAMPLE_FMT_FLTP:
                    value = pcm(plane(c).map { UnsafeRawPointer($0).load(fromByteOffset: i * 4, as: Float.self) } ?? 0)
                default:
                    return
                }
                samples.append(value)
            }
        }
    }

    private static func pcm(_ sample: Float) -> Int16 { Int16(max(-1, min(1, sample)) * 32767) }

    private static func wavFile(_ samples: [Int16], rate: Int, channels: Int) -> Data {
        var data = Data()
        func le32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func le16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        let bytes = samples.count * 2
        data.append(contentsOf: Array("RIFF".utf8)); le32(36 + bytes); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); le32(16); le16(1); le16(channels); le32(rate)
        le32(rate * channels * 2); le16(channels * 2); le16(16)
        data.append(contentsOf: Array("data".utf8)); le32(bytes)
        samples.withUnsafeBytes { raw in
            for chunk in stride(from: 0, to: raw.count, by: 2) {
                let v = raw.load(fromByteOffset: chunk, as: Int16.self).littleEndian
                withUnsafeBytes(of: v) { data.append(contentsOf: $0) }
            }
        }
        return data
    }
}
