import IntercomImaging

extension RGBImage {
    /// Nearest-neighbour resampling to `width`×`height` (the simulated snapshot at a panel's
    /// main-stream size); the same size returns the image itself, so tests at 640×480 pay nothing.
    func enlarged(width: Int, height: Int) -> RGBImage {
        guard width > 0, height > 0, width != self.width || height != self.height else { return self }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let sourceColumns = (0..<width).map { $0 * self.width / width * 3 }
        out.withUnsafeMutableBufferPointer { target in
            pixels.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    let sourceRow = (y * self.height / height) * self.width * 3
                    var at = y * width * 3
                    for column in sourceColumns {
                        let from = sourceRow + column
                        target[at] = source[from]
                        target[at + 1] = source[from + 1]
                        target[at + 2] = source[from + 2]
                        at += 3
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: out) ?? self
    }
}
