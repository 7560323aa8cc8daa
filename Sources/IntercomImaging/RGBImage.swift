/// Packed 8-bit RGB, row after row with no padding: what terminals and encoders want.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    /// Nil when the buffer does not match the dimensions.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height * 3 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A black image of the given size.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.pixels = [UInt8](repeating: 0, count: self.width * self.height * 3)
    }
}

/// A width and height, e.g. the terminal area a picture has to fill.
public struct PixelSize: Sendable, Equatable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)×\(height)" }
}
