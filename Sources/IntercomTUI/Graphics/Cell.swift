/// One terminal cell: a character and its colours as 0xRRGGBB. Plain values so grids compare
/// with memcmp-like speed and cross tasks freely.
public struct Cell: Sendable, Equatable {
    public var glyph: Unicode.Scalar
    public var foreground: UInt32
    public var background: UInt32

    public init(_ glyph: Unicode.Scalar, foreground: UInt32, background: UInt32) {
        self.glyph = glyph
        self.foreground = foreground
        self.background = background
    }

    public static let blank = Cell(" ", foreground: 0, background: 0)
}
