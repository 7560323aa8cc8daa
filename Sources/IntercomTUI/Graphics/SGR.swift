/// Colour escape sequences for each colour depth. Indexed colours are picked here, from the
/// RGB the renderers produce, so every renderer works at every depth.
enum SGR {
    static func append(foreground: UInt32?, background: UInt32?, depth: ColorDepth, to out: inout [UInt8]) {
        guard depth != .none, foreground != nil || background != nil else { return }
        out += [0x1B, 0x5B]  // ESC [
        var first = true
        func sep() { if !first { out.append(0x3B) }; first = false }
        if let foreground { sep(); color(foreground, base: 38, depth: depth, &out) }
        if let background { sep(); color(background, base: 48, depth: depth, &out) }
        out.append(0x6D)  // m
    }

    static let reset: [UInt8] = [0x1B, 0x5B, 0x30, 0x6D]

    private static func color(_ rgb: UInt32, base: Int, depth: ColorDepth, _ out: inout [UInt8]) {
        let r = Int(rgb >> 16 & 0xFF), g = Int(rgb >> 8 & 0xFF), b = Int(rgb & 0xFF)
        switch depth {
        case .truecolor:
            number(base, &out); out += [0x3B, 0x32, 0x3B]  // ;2;
            number(r, &out); out.append(0x3B); number(g, &out); out.append(0x3B); number(b, &out)
        case .indexed256:
            number(base, &out); out += [0x3B, 0x35, 0x3B]  // ;5;
            number(index256(r, g, b), &out)
        case .indexed16:
            let i = index16(r, g, b)
            number((base == 38 ? 30 : 40) + (i & 7) + (i >= 8 ? 60 : 0), &out)
        case .none:
            break
        }
    }

    /// xterm's 6×6×6 cube or its grey ramp, whichever is nearer.
    static func index256(_ r: Int, _ g: Int, _ b: Int) -> Int {
        func level(_ v: Int) -> Int { v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40 }
        let steps = [0, 95, 135, 175, 215, 255]
        let (cr, cg, cb) = (level(r), level(g), level(b))
        let cubeError = sq(steps[cr] - r) + sq(steps[cg] - g) + sq(steps[cb] - b)
        let grey = (r + g + b) / 3
        let gi = grey > 238 ? 23 : max(0, (grey - 3) / 10)
        let gv = 8 + gi * 10
        let greyError = sq(gv - r) + sq(gv - g) + sq(gv - b)
        return greyError < cubeError ? 232 + gi : 16 + 36 * cr + 6 * cg + cb
    }

    /// The nearest of the 16 ANSI colours (xterm's defaults).
    static func index16(_ r: Int, _ g: Int, _ b: Int) -> Int {
        var best = 0, bestError = Int.max
        for (i, c) in ansi16.enumerated() {
            let e = sq(c.0 - r) + sq(c.1 - g) + sq(c.2 - b)
            if e < bestError { best = i; bestError = e }
        }
        return best
    }

    private static let ansi16: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    private static func sq(_ v: Int) -> Int { v * v }

    static func number(_ value: Int, _ out: inout [UInt8]) {
        // Colour channels (0–255) come 75 000 times a second at video rate: from a table.
        if value >= 0, value < 256 {
            let at = value * 4
            decimals.withUnsafeBufferPointer { table in
                for i in (at + 1)...(at + Int(table[at])) { out.append(table[i]) }
            }
            return
        }
        if value >= 10 { number(value / 10, &out) }
        out.append(UInt8(48 + max(0, value) % 10))
    }

    /// 0…255 in decimal, four bytes each: the length, then up to three digits.
    private static let decimals: [UInt8] = (0..<256).flatMap { value -> [UInt8] in
        let digits = Array(String(value).utf8)
        return [UInt8(digits.count)] + digits + [UInt8](repeating: 0, count: 3 - digits.count)
    }

    /// CUP to a 0-based position.
    static func moveTo(row: Int, column: Int, _ out: inout [UInt8]) {
        out += [0x1B, 0x5B]; number(row + 1, &out); out.append(0x3B); number(column + 1, &out); out.append(0x48)
    }
}
