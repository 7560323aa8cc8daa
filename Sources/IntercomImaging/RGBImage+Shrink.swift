/// Nearest-neighbour shrinking: there is no point sending a terminal (or an attached screen) more
/// pixels than it will show.
extension RGBImage {
    /// The image scaled down, keeping its shape, to fit inside `box`; itself when it fits already.
    public func shrunk(toFit box: PixelSize) -> RGBImage {
        let scale = min(1, min(Double(box.width) / Double(width), Double(box.height) / Double(height)))
        guard scale < 1 else { return self }
        let w = max(1, Int(Double(width) * scale)), h = max(1, Int(Double(height) * scale))
        var out = [UInt8](repeating: 0, count: w * h * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let sy = y * height / h
                    for x in 0..<w {
                        let s = (sy * width + x * width / w) * 3, d = (y * w + x) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out) ?? self
    }
}
