import Foundation
import IntercomImaging
import IntercomSimulator
@testable import IntercomTUI
import Testing

/// Kitty frames go out zlib-compressed (`o=z`): what we send inflates back to the very pixels,
/// and the simulator's porch scene costs a fraction of the raw frame.
@Suite("Kitty compression")
struct KittyCompressionTests {
    static let cell = PixelSize(width: 10, height: 20)

    /// The porch scene as a panel sends it: through JPEG, so it carries the block noise of a real camera picture.
    static func porch(_ frame: Int) throws -> RGBImage {
        try JPEG.decode(JPEG.encode(SyntheticFrame.render(frame: frame, label: "TEST", time: "12:00:00"), quality: 85))
    }

    /// The control keys of the first chunk and the base64 payload of all chunks, as kitty reads them.
    static func parse(_ chunks: [[UInt8]]) throws -> (control: [String: String], payload: [UInt8]) {
        var control: [String: String] = [:]
        var payload = ""
        for (i, chunk) in chunks.enumerated() {
            let text = String(decoding: chunk, as: UTF8.self)
            #expect(text.hasPrefix("\u{1B}_G") && text.hasSuffix("\u{1B}\\"))
            let body = text.dropFirst(3).dropLast(2)
            let parts = body.split(separator: ";", maxSplits: 1)
            try #require(parts.count == 2)
            #expect(parts[1].count <= KittyEncoder.chunkSize)
            if i == 0 {
                for pair in parts[0].split(separator: ",") {
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    if kv.count == 2 { control[String(kv[0])] = String(kv[1]) }
                }
            }
            payload += parts[1]
        }
        let data = try #require(Data(base64Encoded: payload))
        return (control, Array(data))
    }

    @Test func whatWeSendInflatesToThePixels() throws {
        let image = try Self.porch(3)
        let (control, payload) = try Self.parse(KittyEncoder.chunks(image, cols: 64, rows: 24, imageID: 1))
        #expect(control["o"] == "z")
        #expect(control["f"] == "24")
        let width = try #require(control["s"].flatMap { Int($0) }), height = try #require(control["v"].flatMap { Int($0) })
        #expect(width == image.width && height == image.height)
        let pixels = try #require(Zlib.inflate(payload, count: width * height * 3), "the payload is not a zlib stream of the picture")
        #expect(pixels == image.pixels)
    }

    /// Through the renderer, as the screen draws it: the porch scene at 640×480 in at most 15 % of
    /// the uncompressed frame's bytes (the raw RGB in base64 that went out before).
    @Test func thePorchSceneCostsAFractionOfTheRawFrame() throws {
        let renderer = ImageRenderer(mode: .kitty, depth: .truecolor)
        let area = CellArea(cols: 64, rows: 24)
        let image = try Self.porch(5)
        let bytes = renderer.render(image: image, into: area, cellPixels: Self.cell).bytes
        let raw = (image.width * image.height * 3 + 2) / 3 * 4
        #expect(image.width == 640 && image.height == 480)
        #expect(bytes.count * 100 <= raw * 15, "\(bytes.count) bytes against \(raw) raw")
        print("kitty porch 640×480: \(bytes.count) bytes, raw base64 \(raw)")
    }
}
