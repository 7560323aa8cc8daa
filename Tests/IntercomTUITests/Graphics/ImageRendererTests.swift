import Foundation
import IntercomCore
@testable import IntercomSimulator
import IntercomTUI
import Testing
import IntercomTestSupport
import IntercomImaging

@Suite("Image renderer")
struct ImageRendererTests {
    static let cell = PixelSize(width: 10, height: 20)

    static func solid(_ r: UInt8, _ g: UInt8, _ b: UInt8, width: Int = 64, height: Int = 48) -> RGBImage {
        RGBImage(width: width, height: height, pixels: [UInt8]((0..<(width * height)).flatMap { _ in [r, g, b] })) ?? RGBImage(width: 1, height: 1)
    }

    static func scene(_ frame: Int) -> RGBImage {
        SyntheticFrame.render(frame: frame, label: "TEST", time: "12:00:00")
    }

    /// The SGR colour codes in a byte string, e.g. "38;2;200;30;40".
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test(arguments: [ImageRenderer.SymbolEngine.fast, .chafa])
    func pureColourGivesCellsOfThatColour(engine: ImageRenderer.SymbolEngine) {
        let renderer = ImageRenderer(mode: .symbols, depth: .truecolor, symbolEngine: engine)
        let frame = renderer.render(image: Self.solid(200, 30, 40), into: CellArea(cols: 20, rows: 10), cellPixels: Self.cell)
        let out = Self.text(frame.bytes)
        #expect(out.contains("2;200;30;40"), "\(out.prefix(200))")
        #expect(!out.contains(";2;0;0;0"))
    }

    @Test func pureColourAt256Colours() {
        let renderer = ImageRenderer(mode: .symbols, depth: .indexed256)
        let out = Self.text(renderer.render(image: Self.solid(255, 0, 0), into: CellArea(cols: 10, rows: 5), cellPixels: Self.cell).bytes)
        #expect(out.contains("48;5;196"))
    }

    @Test func sixelIsAWellFormedDCS() throws {
        let renderer = ImageRenderer(mode: .sixel, depth: .truecolor, placement: .inline)
        let frame = renderer.render(image: Self.scene(1), into: CellArea(cols: 40, rows: 12), cellPixels: Self.cell)
        let bytes = frame.bytes
        let start = try #require(bytes.firstIndex(of: 0x1B))
        #expect(bytes[start + 1] == UInt8(ascii: "P"))
        let q = try #require(bytes[start...].firstIndex(of: UInt8(ascii: "q")))
        // Only parameters between ESC P and q.
        #expect(bytes[(start + 2)..<q].allSatisfy { (0x30...0x3B).contains($0) })
        let end = try #require(bytes.lastIndex(of: 0x1B))
        #expect(Array(bytes[end...].prefix(2)) == [0x1B, UInt8(ascii: "\\")])
        #expect(bytes[(q + 1)..<end].contains(UInt8(ascii: "#")))  // palette / colour selections
    }

    @Test func kittyChunksAreWellFormed() throws {
        let renderer = ImageRenderer(mode: .kitty, depth: .truecolor)
        let image = Self.scene(2)
        let frame = renderer.render(image: image, into: CellArea(cols: 80, rows: 24), cellPixels: Self.cell)
        let text = Self.text(frame.bytes)
        let chunks = text.components(separatedBy: "\u{1B}_G").dropFirst()
        #expect(chunks.count > 1)
        var payload = ""
        for (i, chunk) in chunks.enumerated() {
            #expect(chunk.hasSuffix("\u{1B}\\"))
            let body = chunk.dropLast(2)
            let parts = body.split(separator: ";", maxSplits: 1)
            #expect(parts.count == 2)
            let control = parts[0], data = parts[1]
            #expect(data.count <= 4096)
            #expect(data.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" || $0 == "=" })
            #expect(control.contains(i == chunks.count - 1 ? "m=0" : "m=1"))
            if i == 0 { #expect(control.contains("a=T") && control.contains("f=24") && control.contains("i=1")) }
            payload += data
        }
        // The payload is zlib-compressed RGB (o=z); KittyCompressionTests inflates it back.
        #expect(Data(base64Encoded: payload) != nil)
        #expect(text.contains(",o=z,"))
    }

    @Test(arguments: [GraphicsMode.symbols, .ascii, .sixel, .kitty, .iterm])
    func neverExceedsTheArea(mode: GraphicsMode) {
        // The shapes that matter (4:3, 16:9, very tall, tiny), not camera sizes: scaling a 1280×720 picture
        // into every area in a debug build took this test 13 s of a shard's CPU and showed nothing more.
        let images = [Self.solid(10, 20, 30, width: 160, height: 120), Self.solid(1, 2, 3, width: 320, height: 180),
                      Self.solid(9, 9, 9, width: 40, height: 360), Self.solid(7, 7, 7, width: 3, height: 2)]
        let sizes = mode == .symbols || mode == .ascii
            ? [(1, 1), (2, 1), (1, 5), (7, 3), (80, 24), (160, 48), (33, 100), (200, 10)]
            : [(1, 1), (7, 3), (80, 24), (40, 30)]
        for image in images {
            for (cols, rows) in sizes {
                let renderer = ImageRenderer(mode: mode, depth: .truecolor)
                let area = CellArea(column: 3, row: 2, cols: cols, rows: rows)
                let frame = renderer.render(image: image, into: area, cellPixels: Self.cell)
                #expect(frame.cols >= 1 && frame.rows >= 1)
                #expect(frame.columnOffset + frame.cols <= cols && frame.rowOffset + frame.rows <= rows,
                        "\(image.width)×\(image.height) in \(cols)×\(rows): \(frame.cols)×\(frame.rows) at +\(frame.columnOffset)+\(frame.rowOffset)")
                if mode == .symbols || mode == .ascii {
                    // Every cursor move lands inside the area.
                    for (row, col) in Self.cursorMoves(frame.bytes) {
                        #expect(row >= 3 && row <= 2 + rows && col >= 4 && col <= 3 + cols)
                    }
                }
            }
        }
    }

    @Test func keepsTheAspectRatio() {
        let renderer = ImageRenderer(mode: .symbols, depth: .truecolor)
        let frame = renderer.render(image: Self.scene(0), into: CellArea(cols: 160, rows: 48), cellPixels: Self.cell)
        // 4:3 at 10×20 px cells: 48 rows → 960 px tall → 1280 px → 128 columns.
        #expect(frame.rows == 48)
        #expect(abs(frame.cols - 128) <= 1)
        #expect(frame.columnOffset == (160 - frame.cols) / 2)
    }

    @Test(arguments: [GraphicsMode.symbols, .ascii, .sixel, .kitty])
    func identicalFrameEmitsAlmostNothing(mode: GraphicsMode) {
        let renderer = ImageRenderer(mode: mode, depth: .truecolor)
        let area = CellArea(cols: 80, rows: 24)
        let first = renderer.render(image: Self.scene(3), into: area, cellPixels: Self.cell)
        let second = renderer.render(image: Self.scene(3), into: area, cellPixels: Self.cell)
        #expect(first.bytes.count > 1000)
        #expect(second.bytes.count <= 16)
        #expect(!second.changed)
        // A new geometry is drawn whole again.
        let resized = renderer.render(image: Self.scene(3), into: CellArea(cols: 60, rows: 20), cellPixels: Self.cell)
        #expect(resized.bytes.count > 1000)
    }

    @Test func smallChangeCostsAtMostTenPercent() {
        let renderer = ImageRenderer(mode: .symbols, depth: .truecolor)
        let area = CellArea(cols: 160, rows: 48)
        let base = Self.scene(10)
        let full = renderer.render(image: base, into: area, cellPixels: Self.cell).bytes.count
        // Change a block covering under 10 % of the picture.
        var changed = base
        for y in 200..<300 { for x in 100..<260 { changed.pixels[(y * base.width + x) * 3] ^= 0x80 } }
        let diff = renderer.render(image: changed, into: area, cellPixels: Self.cell).bytes.count
        #expect(diff > 0)
        #expect(Double(diff) <= 0.10 * Double(full), "\(diff) of \(full) bytes")
    }

    @Test func decoderNoiseIsNotRedrawnButADriftIs() {
        // A decoded stream's next frame differs by a step or two in every pixel.
        let renderer = ImageRenderer(mode: .symbols, depth: .truecolor)
        let area = CellArea(cols: 32, rows: 12)
        let base = Self.solid(100, 150, 200, width: 32, height: 24)
        #expect(!renderer.render(image: base, into: area, cellPixels: Self.cell).bytes.isEmpty)
        var noisy = base
        for i in noisy.pixels.indices where i % 3 != 1 { noisy.pixels[i] &+= 2 }
        #expect(renderer.render(image: noisy, into: area, cellPixels: Self.cell).bytes.isEmpty)
        // Steps of 2 add up against what the terminal shows: the third is beyond the tolerance.
        var drifted = noisy
        for i in drifted.pixels.indices where i % 3 != 1 { drifted.pixels[i] &+= 2 }
        #expect(renderer.render(image: drifted, into: area, cellPixels: Self.cell).bytes.isEmpty)
        for i in drifted.pixels.indices where i % 3 != 1 { drifted.pixels[i] &+= 2 }
        let redrawn = Self.text(renderer.render(image: drifted, into: area, cellPixels: Self.cell).bytes)
        #expect(redrawn.contains("2;106;150;206"), "\(redrawn.prefix(120))")
        // At 256 colours the cells are compared exactly (the palette does the rounding there).
        let indexed = ImageRenderer(mode: .symbols, depth: .indexed256)
        _ = indexed.render(image: base, into: area, cellPixels: Self.cell)
        #expect(!indexed.render(image: noisy, into: area, cellPixels: Self.cell).bytes.isEmpty)
    }

    @Test func nextSyntheticFrameIsADiff() {
        // Consecutive simulator frames: the sun, the clock hand, the counter move.
        let renderer = ImageRenderer(mode: .symbols, depth: .truecolor)
        let area = CellArea(cols: 160, rows: 48)
        let full = renderer.render(image: Self.scene(20), into: area, cellPixels: Self.cell).bytes.count
        let next = renderer.render(image: Self.scene(21), into: area, cellPixels: Self.cell).bytes.count
        #expect(next < full / 2, "\(next) of \(full)")
    }

    @Test func asciiHasNoEscapes() {
        let renderer = ImageRenderer(mode: .ascii, depth: .truecolor, placement: .inline)
        let frame = renderer.render(image: Self.scene(4), into: CellArea(cols: 40, rows: 12), cellPixels: Self.cell)
        #expect(!frame.bytes.contains(0x1B))
        #expect(frame.bytes.allSatisfy { $0 < 0x80 })
    }

    @Test func tmuxPassthroughDoublesEscapes() {
        let renderer = ImageRenderer(mode: .kitty, depth: .truecolor, placement: .inline, tmuxPassthrough: true)
        let text = Self.text(renderer.render(image: Self.solid(1, 2, 3), into: CellArea(cols: 8, rows: 4), cellPixels: Self.cell).bytes)
        #expect(text.contains("\u{1B}Ptmux;\u{1B}\u{1B}_G"))
    }

    /// Inside tmux the real terminal's cursor is not where tmux's is: every wrapped chunk
    /// carries its own move, offset by the pane's place on the terminal.
    @Test(arguments: [GraphicsMode.kitty, .sixel, .iterm])
    func tmuxPassthroughCarriesTheCursorMove(mode: GraphicsMode) {
        let renderer = ImageRenderer(mode: mode, depth: .truecolor, tmuxPassthrough: true)
        renderer.paneOrigin = PaneOrigin(row: 2, column: 40)
        let area = CellArea(column: 3, row: 1, cols: 30, rows: 15)
        let frame = renderer.render(image: Self.scene(1), into: area, cellPixels: Self.cell)
        let text = Self.text(frame.bytes)
        let row = 1 + frame.rowOffset + 1, column = 3 + frame.columnOffset + 1
        // Outside the wrapper, for tmux; inside (ESC doubled), for the terminal behind it.
        #expect(text.hasPrefix("\u{1B}[\(row);\(column)H\u{1B}Ptmux;"))
        let inner = "\u{1B}Ptmux;\u{1B}\u{1B}[\(row + 2);\(column + 40)H\u{1B}\u{1B}"
        let wrappers = text.components(separatedBy: "\u{1B}Ptmux;").count - 1
        #expect(wrappers >= 1)
        #expect(text.components(separatedBy: inner).count - 1 == wrappers)
    }

    /// Kiosk tiles each have their own kitty image, and each can be taken off the screen.
    @Test func kittyImagesAreKeptApartAndDeletedById() {
        let tile = ImageRenderer(mode: .kitty, depth: .truecolor, imageID: 3)
        let text = Self.text(tile.render(image: Self.solid(1, 2, 3), into: CellArea(cols: 8, rows: 4), cellPixels: Self.cell).bytes)
        #expect(text.contains(",i=3,") && !text.contains(",i=1,"))
        #expect(Self.text(tile.eraseBytes()) == "\u{1B}_Ga=d,d=I,i=3,q=2\u{1B}\\")
        let wrapped = ImageRenderer(mode: .kitty, depth: .truecolor, tmuxPassthrough: true, imageID: 2)
        #expect(Self.text(wrapped.eraseBytes()) == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,i=2,q=2\u{1B}\u{1B}\\\u{1B}\\")
        // Sixel and symbols are cell content: clearing the screen removes them.
        #expect(ImageRenderer(mode: .sixel, depth: .truecolor).eraseBytes().isEmpty)
        #expect(ImageRenderer(mode: .symbols, depth: .truecolor).eraseBytes().isEmpty)
    }

    @Test func tmuxPaneOriginIsParsed() {
        #expect(TmuxPane.parse("0 0 bottom on\n") == PaneOrigin.zero)
        #expect(TmuxPane.parse("5 81 bottom on") == PaneOrigin(row: 5, column: 81))
        #expect(TmuxPane.parse("5 81 top on") == PaneOrigin(row: 6, column: 81))
        #expect(TmuxPane.parse("5 81 top 2") == PaneOrigin(row: 7, column: 81))
        #expect(TmuxPane.parse("5 81 top off") == PaneOrigin(row: 5, column: 81))
        #expect(TmuxPane.parse("") == nil)
        #expect(TmuxPane.parse("no server running") == nil)
    }

    /// (row, column) of every CUP in the bytes, 1-based as sent.
    static func cursorMoves(_ bytes: [UInt8]) -> [(Int, Int)] {
        let text = Self.text(bytes)
        var moves: [(Int, Int)] = []
        for part in text.split(separator: "\u{1B}") where part.hasPrefix("[") {
            guard let h = part.firstIndex(of: "H") else { continue }
            let nums = part[part.index(after: part.startIndex)..<h].split(separator: ";").compactMap { Int($0) }
            if nums.count == 2 { moves.append((nums[0], nums[1])) }
        }
        return moves
    }
}
