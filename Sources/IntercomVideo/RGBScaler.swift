import CFFmpeg
import IntercomImaging

/// libswscale to packed RGB at a given size, its context cached across frames (rebuilt only when
/// the frame's size or format or the target changes). Owned by one decoder on one thread.
struct RGBScaler: ~Copyable {
    private var context: OpaquePointer?

    init() {}

    deinit { sws_freeContext(context) }

    /// The frame straight at `size`, in one pass; nil for an empty frame or size.
    mutating func scale(_ frame: UnsafeMutablePointer<AVFrame>, to size: PixelSize) -> RGBImage? {
        let source = frame.pointee
        guard source.width > 0, source.height > 0, size.width > 0, size.height > 0 else { return nil }
        // Area averaging: a frame shrunk 4–5× for terminal cells keeps its thin lines (bilinear
        // drops rows between its taps) and costs a third less than SWS_BILINEAR at these ratios.
        context = sws_getCachedContext(context, source.width, source.height, AVPixelFormat(rawValue: source.format),
                                       Int32(size.width), Int32(size.height), AV_PIX_FMT_RGB24,
                                       Int32(SWS_AREA), nil, nil, nil)
        guard let context else { return nil }
        // `data` and `linesize` import as 8-tuples: sws_scale wants arrays.
        let d = source.data
        let planes: [UnsafePointer<UInt8>?] = [d.0, d.1, d.2, d.3, d.4, d.5, d.6, d.7].map { $0.map { UnsafePointer($0) } }
        let l = source.linesize
        let strides: [Int32] = [l.0, l.1, l.2, l.3, l.4, l.5, l.6, l.7]
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        let rows = pixels.withUnsafeMutableBufferPointer { buffer -> Int32 in
            let target: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            let targetStrides: [Int32] = [Int32(size.width * 3), 0, 0, 0]
            return sws_scale(context, planes, strides, 0, source.height, target, targetStrides)
        }
        guard rows == Int32(size.height) else { return nil }
        return RGBImage(width: size.width, height: size.height, pixels: pixels)
    }

    /// Frees the context now (a decoder closing before it is released).
    mutating func free() {
        sws_freeContext(context)
        context = nil
    }
}
