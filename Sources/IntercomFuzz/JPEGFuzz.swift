import Foundation
import IntercomCore
import IntercomTUI
import IntercomImaging

/// A panel snapshot on its way to the screen: header read, DCT-scaled decode to the size
/// a terminal area or the daemon's peephole wants, then drawn. The input's length picks
/// the target size, so seeds stay plain JPEG files and every size gets exercised.
enum JPEGFuzz {
    /// Every caller decodes to a target; a full-size decode of a header claiming 10000×10000
    /// would spend the run in libjpeg on a path the program never takes.
    static let targets: [PixelSize] = [
        PixelSize(width: 640, height: 480),  // the daemon's peephole
        PixelSize(width: 80, height: 48),  // symbols in a small pane
        PixelSize(width: 1, height: 1),
        PixelSize(width: 200, height: 120),
        PixelSize(width: 1600, height: 960),  // kitty, 160×48 cells of 10×20 px
    ]
    static let area = CellArea(cols: 40, rows: 12)
    static let cellPixels = PixelSize(width: 10, height: 20)

    static func run(_ input: [UInt8]) {
        let data = Data(input)
        let target = targets[input.count % targets.count]
        let header = try? JPEG.size(of: data)
        let image: RGBImage
        do {
            image = try JPEG.decode(data, covering: target)
        } catch {
            return
        }
        precondition(image.pixels.count == image.width * image.height * 3)
        if let header {
            precondition(image.width <= header.width && image.height <= header.height, "the decoder never upscales")
            let expected = JPEG.scaledSize(of: header, covering: target)
            precondition(image.width == expected.width && image.height == expected.height)
        }
        // The journal encodes decoded video frames; small pictures only, to keep the rate up.
        if image.width * image.height <= 64 * 64 {
            guard let again = try? JPEG.decode(JPEG.encode(image)) else {
                preconditionFailure("our own JPEG of a \(image.width)×\(image.height) picture does not decode")
            }
            precondition(again.width == image.width && again.height == image.height)
        }
        let symbols = ImageRenderer(mode: .symbols, depth: .truecolor)
        _ = symbols.render(image: image, into: area, cellPixels: cellPixels)
        let kitty = ImageRenderer(mode: .kitty, depth: .truecolor)
        _ = kitty.render(image: image, into: area, cellPixels: cellPixels)
    }
}
