internal import CTurboJPEG
import Foundation

/// JPEG decode and encode through libturbojpeg.
public enum JPEG {
    /// Why no JPEG can be read or written here (libturbojpeg missing), or nil when it can.
    public static var loadProblem: String? { TurboJPEGLibrary.loaded.loadProblem }

    /// Dimensions without decoding the picture.
    public static func size(of data: Data) throws(JPEGError) -> PixelSize {
        let handle = try TurboJPEGHandle(compress: false)
        let header = try readHeader(data, handle)
        return PixelSize(width: header.width, height: header.height)
    }

    /// Decodes to RGB. With a `target`, the DCT scaling (1/8 … 1) picks the smallest
    /// size that still covers it: cheaper than decoding full size and shrinking,
    /// and the caller's resampler never has to upscale.
    public static func decode(_ data: Data, covering target: PixelSize? = nil) throws(JPEGError) -> RGBImage {
        let handle = try TurboJPEGHandle(compress: false)
        let header = try readHeader(data, handle)
        let source = PixelSize(width: header.width, height: header.height)
        let size = target.map { scaledSize(of: source, covering: $0) } ?? source

        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        let rc = data.withUnsafeBytes { (jpeg: UnsafeRawBufferPointer) -> Int32 in
            pixels.withUnsafeMutableBufferPointer { out in
                handle.tj.decompress2(
                    handle.raw, jpeg.bindMemory(to: UInt8.self).baseAddress, UInt(jpeg.count),
                    out.baseAddress, Int32(size.width), 0, Int32(size.height),
                    Int32(TJPF_RGB.rawValue),
                    // A truncated picture only raises a libjpeg warning; without this flag
                    // it would come back half grey and look like a valid frame.
                    TJFLAG_STOPONWARNING)
            }
        }
        guard rc == 0 else { throw .corrupt(handle.lastError) }
        guard let image = RGBImage(width: size.width, height: size.height, pixels: pixels) else {
            throw .corrupt("decoder returned an unexpected size")
        }
        return image
    }

    /// The decoded size `decode(_:covering:)` would produce for a `source`-sized JPEG.
    public static func scaledSize(of source: PixelSize, covering target: PixelSize) -> PixelSize {
        var count: Int32 = 0
        guard case .success(let tj) = TurboJPEGLibrary.loaded, let factors = tj.c.get_scaling_factors(&count), count > 0 else {
            return source
        }
        var best = source
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) {
            // Upscaling in the decoder buys nothing over showing the picture as is.
            guard factor.num <= factor.denom else { continue }
            let scaled = PixelSize(
                width: scale(source.width, factor), height: scale(source.height, factor))
            if scaled.width >= target.width, scaled.height >= target.height,
               scaled.width * scaled.height < best.width * best.height {
                best = scaled
            }
        }
        return best
    }

    /// Encodes RGB to a baseline 4:2:0 JPEG; `quality` is 1…100.
    public static func encode(_ image: RGBImage, quality: Int = 80) throws(JPEGError) -> Data {
        guard image.pixels.count == image.width * image.height * 3 else {
            throw .invalidImage("\(image.width)×\(image.height) needs \(image.width * image.height * 3) bytes")
        }
        let handle = try TurboJPEGHandle(compress: true)
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        // tjFree also covers a buffer left behind by a failed compress.
        defer { if let output { handle.tj.free(output) } }
        let rc = image.pixels.withUnsafeBufferPointer { src in
            handle.tj.compress2(
                handle.raw, src.baseAddress, Int32(image.width), 0, Int32(image.height),
                Int32(TJPF_RGB.rawValue), &output, &outputSize,
                Int32(TJSAMP_420.rawValue), Int32(min(100, max(1, quality))), 0)
        }
        guard rc == 0, let output else { throw .encodeFailed(handle.lastError) }
        return Data(bytes: output, count: Int(outputSize))
    }

    // TJSCALED() is a macro Swift does not import.
    private static func scale(_ dimension: Int, _ factor: tjscalingfactor) -> Int {
        (dimension * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
    }

    private static func readHeader(_ data: Data, _ handle: borrowing TurboJPEGHandle) throws(JPEGError) -> PixelSize {
        guard data.count >= 4 else { throw .invalidHeader("only \(data.count) bytes") }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let rc = data.withUnsafeBytes { jpeg in
            handle.tj.decompress_header3(
                handle.raw, jpeg.bindMemory(to: UInt8.self).baseAddress, UInt(jpeg.count),
                &width, &height, &subsampling, &colorspace)
        }
        guard rc == 0 else { throw .invalidHeader(handle.lastError) }
        guard width > 0, height > 0, Int(width) * Int(height) <= 100_000_000 else {
            throw .invalidHeader("implausible size \(width)×\(height)")
        }
        return PixelSize(width: Int(width), height: Int(height))
    }
}
