import IntercomImaging

/// Fits a picture into a cell area keeping its shape: cells are usually twice as tall as wide,
/// so a 4:3 picture needs about 2.7 columns per row, not 1.33.
public struct Letterbox: Sendable, Equatable {
    public var cols: Int
    public var rows: Int
    /// Offset of the picture inside the area, centring it.
    public var columnOffset: Int
    public var rowOffset: Int

    public init(image: PixelSize, area: CellArea, cellPixels: PixelSize) {
        let cw = Double(max(1, cellPixels.width)), ch = Double(max(1, cellPixels.height))
        let w = Double(max(1, image.width)), h = Double(max(1, image.height))
        let scale = min(Double(area.cols) * cw / w, Double(area.rows) * ch / h)
        cols = max(1, min(area.cols, Int((w * scale / cw).rounded())))
        rows = max(1, min(area.rows, Int((h * scale / ch).rounded())))
        columnOffset = (area.cols - cols) / 2
        rowOffset = (area.rows - rows) / 2
    }
}
