import IntercomImaging

/// What the terminal said to the probe's queries. Everything optional: a missing answer
/// means "unsupported", never "wait longer".
public struct TerminalAnswers: Sendable, Equatable {
    /// DA1 attributes (`CSI ? 62;4;22 c` → [62, 4, 22]); 4 = sixel.
    public var deviceAttributes: [Int]?
    /// The kitty graphics query came back OK.
    public var kittyGraphics: Bool = false
    /// `CSI 14 t` → text area in pixels.
    public var windowPixels: PixelSize?
    /// `CSI 16 t` → one cell in pixels.
    public var cellPixels: PixelSize?
    /// The DSR sentinel arrived: the terminal has answered everything it is going to.
    public var complete: Bool = false

    public init(deviceAttributes: [Int]? = nil, kittyGraphics: Bool = false, windowPixels: PixelSize? = nil,
                cellPixels: PixelSize? = nil, complete: Bool = false) {
        self.deviceAttributes = deviceAttributes
        self.kittyGraphics = kittyGraphics
        self.windowPixels = windowPixels
        self.cellPixels = cellPixels
        self.complete = complete
    }

    /// No terminal at all, or one that never answered.
    public static let none = TerminalAnswers()

    public var sixel: Bool { deviceAttributes?.contains(4) ?? false }

    /// Parses whatever arrived (answers can come in any order, interleaved with nothing else
    /// because the tty is in raw mode and we have not started reading keys yet).
    public static func parse(_ bytes: [UInt8]) -> TerminalAnswers {
        var answers = TerminalAnswers()
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B, i + 1 < bytes.count else { i += 1; continue }
            let kind = bytes[i + 1]
            if kind == UInt8(ascii: "[") {
                // CSI params final
                var j = i + 2
                while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { break }
                let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                switch bytes[j] {
                case UInt8(ascii: "c") where params.hasPrefix("?"):
                    answers.deviceAttributes = params.dropFirst().split(separator: ";").compactMap { Int($0) }
                case UInt8(ascii: "t"):
                    let n = params.split(separator: ";").compactMap { Int($0) }
                    if n.count == 3, n[1] > 0, n[2] > 0 {
                        let extent = PixelSize(width: n[2], height: n[1])
                        if n[0] == 4 { answers.windowPixels = extent }
                        if n[0] == 6 { answers.cellPixels = extent }
                    }
                case UInt8(ascii: "n") where params == "0":
                    answers.complete = true
                default: break
                }
                i = j + 1
            } else if kind == UInt8(ascii: "_") {
                // APC G ... ; OK ESC \
                var j = i + 2
                while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
                let body = String(decoding: bytes[(i + 2)..<min(j, bytes.count)], as: UTF8.self)
                if body.hasPrefix("G"), body.contains("i=\(TerminalProbe.kittyQueryID)"), body.hasSuffix(";OK") {
                    answers.kittyGraphics = true
                }
                i = j + 2
            } else {
                i += 1
            }
        }
        return answers
    }
}

