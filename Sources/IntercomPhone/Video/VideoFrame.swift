import Foundation
import IntercomBase

/// One decoded picture of call video, I420 packed without padding: Y (w×h), then U and V (each ⌈w/2⌉×⌈h/2⌉).
public struct VideoFrame: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var i420: [UInt8]
    /// Counts frames since the phone started; a consumer uses it to skip what it has drawn.
    public var sequence: UInt64
    public var call: CallID?

    public init(width: Int, height: Int, i420: [UInt8], sequence: UInt64, call: CallID?) {
        self.width = width
        self.height = height
        self.i420 = i420
        self.sequence = sequence
        self.call = call
    }

    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }

    /// Converts to packed RGB (BT.601 limited range, as H.264 and VP8 decoders emit).
    public func rgb() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let ySize = width * height
        let cSize = chromaWidth * chromaHeight
        guard i420.count >= ySize + 2 * cSize else { return out }
        i420.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<height {
                    let cRow = (row / 2) * chromaWidth
                    for col in 0..<width {
                        let y = Int(src[row * width + col]) - 16
                        let u = Int(src[ySize + cRow + col / 2]) - 128
                        let v = Int(src[ySize + cSize + cRow + col / 2]) - 128
                        let c = 298 * y
                        let i = (row * width + col) * 3
                        dst[i] = Self.clamp((c + 409 * v + 128) >> 8)
                        dst[i + 1] = Self.clamp((c - 100 * u - 208 * v + 128) >> 8)
                        dst[i + 2] = Self.clamp((c + 516 * u + 128) >> 8)
                    }
                }
            }
        }
        return out
    }

    /// The average colour of the picture, each channel 0…255.
    public func meanRGB() -> (red: Double, green: Double, blue: Double) {
        let pixels = rgb()
        var sums = (0, 0, 0)
        var i = 0
        while i + 2 < pixels.count {
            sums.0 += Int(pixels[i]); sums.1 += Int(pixels[i + 1]); sums.2 += Int(pixels[i + 2])
            i += 3
        }
        let n = Double(max(1, width * height))
        return (Double(sums.0) / n, Double(sums.1) / n, Double(sums.2) / n)
    }

    private static func clamp(_ value: Int) -> UInt8 { UInt8(min(255, max(0, value))) }
}
