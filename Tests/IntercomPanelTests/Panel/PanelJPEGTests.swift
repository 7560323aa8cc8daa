import Foundation
import Testing
import IntercomPanel
import IntercomImaging
import IntercomHTTP
import IntercomTestSupport

@Suite struct PanelJPEGTests {
    private func sample(width: Int = 640, height: Int = 480) throws -> Data {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = UInt8(truncatingIfNeeded: i / 3 % width)
            pixels[i + 1] = 128
        }
        let image = try #require(RGBImage(width: width, height: height, pixels: pixels))
        return try JPEG.encode(image, quality: 80)
    }

    @Test func roundTripKeepsTheSize() throws {
        let jpeg = try sample()
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        let image = try JPEG.decode(jpeg)
        #expect(image.width == 640 && image.height == 480)
        #expect(image.pixels.count == 640 * 480 * 3)
    }

    @Test(arguments: [
        (PixelSize(width: 100, height: 100), PixelSize(width: 160, height: 120)),
        (PixelSize(width: 300, height: 200), PixelSize(width: 320, height: 240)),
        (PixelSize(width: 80, height: 60), PixelSize(width: 80, height: 60)),
        (PixelSize(width: 81, height: 60), PixelSize(width: 160, height: 120)),
        (PixelSize(width: 640, height: 480), PixelSize(width: 640, height: 480)),
        (PixelSize(width: 2000, height: 2000), PixelSize(width: 640, height: 480)),
    ])
    func scalingPicksTheSmallestCoveringSize(target: PixelSize, expected: PixelSize) throws {
        #expect(JPEG.scaledSize(of: PixelSize(width: 640, height: 480), covering: target) == expected)
        let image = try JPEG.decode(try sample(), covering: target)
        #expect(image.width == expected.width && image.height == expected.height)
    }

    @Test func garbageAndTruncationThrowTypedErrors() throws {
        let jpeg = try sample()
        #expect(throws: JPEGError.self) { try JPEG.decode(Data()) }
        #expect(throws: JPEGError.self) { try JPEG.decode(Data("<html>not a picture</html>".utf8)) }
        #expect(throws: JPEGError.self) { try JPEG.decode(jpeg.prefix(jpeg.count / 2)) }
        #expect(throws: JPEGError.self) { try JPEG.decode(jpeg.prefix(20)) }
        var flipped = jpeg
        for i in stride(from: 700, to: flipped.count - 2, by: 97) { flipped[i] ^= 0x5A }
        // Either an error or a (damaged) picture, but never a crash.
        _ = try? JPEG.decode(flipped)
    }

    @Test func encodeRejectsMismatchedBuffers() {
        #expect(RGBImage(width: 2, height: 2, pixels: [0, 0, 0]) == nil)
    }
}
