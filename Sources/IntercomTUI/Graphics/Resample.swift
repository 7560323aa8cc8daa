import IntercomEngine
import IntercomImaging

/// Nearest-neighbour shrinking for pixel protocols: there is no point sending a terminal more
/// pixels than the cells it will show them in.
enum Resample {
    static func shrink(_ image: RGBImage, toFit box: PixelSize) -> RGBImage {
        let scale = min(1, min(Double(box.width) / Double(image.width), Double(box.height) / Double(image.height)))
        guard scale < 1 else { return image }
        let w = max(1, Int(Double(image.width) * scale)), h = max(1, Int(Double(image.height) * scale))
        var out = [UInt8](repeating: 0, count: w * h * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let sy = y * image.height / h
                    for x in 0..<w {
                        let s = (sy * image.width + x * image.width / w) * 3, d = (y * w + x) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out) ?? image
    }
}
