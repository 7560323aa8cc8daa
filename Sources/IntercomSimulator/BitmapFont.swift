/// A 3×5 pixel font for the simulator's overlay: enough glyphs for a frame counter,
/// a clock and a label (a panel's, an operator camera's name), so nobody needs a font file to see that frames change.
enum BitmapFont {
    static let glyphWidth = 3
    static let glyphHeight = 5

    /// Rows top to bottom, 3 bits each, most significant bit left.
    private static let glyphs: [Character: [UInt8]] = [
        "0": [0b111, 0b101, 0b101, 0b101, 0b111],
        "1": [0b010, 0b110, 0b010, 0b010, 0b111],
        "2": [0b111, 0b001, 0b111, 0b100, 0b111],
        "3": [0b111, 0b001, 0b111, 0b001, 0b111],
        "4": [0b101, 0b101, 0b111, 0b001, 0b001],
        "5": [0b111, 0b100, 0b111, 0b001, 0b111],
        "6": [0b111, 0b100, 0b111, 0b101, 0b111],
        "7": [0b111, 0b001, 0b010, 0b010, 0b010],
        "8": [0b111, 0b101, 0b111, 0b101, 0b111],
        "9": [0b111, 0b101, 0b111, 0b001, 0b111],
        "#": [0b101, 0b111, 0b101, 0b111, 0b101],
        ":": [0b000, 0b010, 0b000, 0b010, 0b000],
        "-": [0b000, 0b000, 0b111, 0b000, 0b000],
        " ": [0b000, 0b000, 0b000, 0b000, 0b000],
        "A": [0b010, 0b101, 0b111, 0b101, 0b101],
        "C": [0b111, 0b100, 0b100, 0b100, 0b111],
        "D": [0b110, 0b101, 0b101, 0b101, 0b110],
        "E": [0b111, 0b100, 0b110, 0b100, 0b111],
        "I": [0b111, 0b010, 0b010, 0b010, 0b111],
        "K": [0b101, 0b101, 0b110, 0b101, 0b101],
        "L": [0b100, 0b100, 0b100, 0b100, 0b111],
        "M": [0b101, 0b111, 0b111, 0b101, 0b101],
        "N": [0b110, 0b101, 0b101, 0b101, 0b101],
        "O": [0b111, 0b101, 0b101, 0b101, 0b111],
        "P": [0b111, 0b101, 0b111, 0b100, 0b100],
        "R": [0b110, 0b101, 0b110, 0b101, 0b101],
        "S": [0b111, 0b100, 0b111, 0b001, 0b111],
        "T": [0b111, 0b010, 0b010, 0b010, 0b010],
        "U": [0b101, 0b101, 0b101, 0b101, 0b111],
    ]

    /// Bit rows for `character`; unknown characters draw as a filled box so gaps are visible.
    static func rows(for character: Character) -> [UInt8] {
        glyphs[character] ?? [0b111, 0b111, 0b111, 0b111, 0b111]
    }
}
