/// What a renderer produced: the bytes to write as they are, and where the picture sits
/// inside the area it was given (never larger than that area).
public struct RenderedFrame: Sendable, Equatable {
    public var bytes: [UInt8]
    public var cols: Int
    public var rows: Int
    public var columnOffset: Int
    public var rowOffset: Int
    /// False when nothing changed since the last frame and `bytes` is (nearly) empty.
    public var changed: Bool

    public init(bytes: [UInt8], cols: Int, rows: Int, columnOffset: Int, rowOffset: Int, changed: Bool) {
        self.bytes = bytes
        self.cols = cols
        self.rows = rows
        self.columnOffset = columnOffset
        self.rowOffset = rowOffset
        self.changed = changed
    }
}
