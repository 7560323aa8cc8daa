/// Minimal drawing on an RGB buffer for the simulated camera picture.
struct Canvas {
    typealias Color = (r: UInt8, g: UInt8, b: UInt8)

    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
    }

    mutating func set(_ x: Int, _ y: Int, _ c: Color) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 3
        pixels[i] = c.r
        pixels[i + 1] = c.g
        pixels[i + 2] = c.b
    }

    mutating func fill(x: Int, y: Int, w: Int, h: Int, _ c: Color) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            var i = (row * width + x0) * 3
            for _ in x0..<x1 {
                pixels[i] = c.r
                pixels[i + 1] = c.g
                pixels[i + 2] = c.b
                i += 3
            }
        }
    }

    mutating func disc(cx: Int, cy: Int, r: Int, _ c: Color) {
        for dy in -r...r {
            for dx in -r...r where dx * dx + dy * dy <= r * r {
                set(cx + dx, cy + dy, c)
            }
        }
    }

    /// A thick line, drawn as overlapping squares along the segment.
    mutating func line(x0: Int, y0: Int, x1: Int, y1: Int, thickness: Int, _ c: Color) {
        let steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for s in 0...steps {
            let x = x0 + (x1 - x0) * s / steps
            let y = y0 + (y1 - y0) * s / steps
            fill(x: x - thickness / 2, y: y - thickness / 2, w: thickness, h: thickness, c)
        }
    }

    mutating func text(_ string: String, x: Int, y: Int, scale: Int, _ c: Color) {
        var penX = x
        for character in string.uppercased() {
            for (row, bits) in BitmapFont.rows(for: character).enumerated() {
                for col in 0..<BitmapFont.glyphWidth where bits & (1 << (BitmapFont.glyphWidth - 1 - col)) != 0 {
                    fill(x: penX + col * scale, y: y + row * scale, w: scale, h: scale, c)
                }
            }
            penX += (BitmapFont.glyphWidth + 1) * scale
        }
    }
}
