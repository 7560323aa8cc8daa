/// A rectangle of terminal cells a picture has to fit in; `column`/`row` are 0-based screen
/// positions (used when the picture is placed absolutely, e.g. on the alternate screen).
public struct CellArea: Sendable, Equatable {
    public var column: Int
    public var row: Int
    public var cols: Int
    public var rows: Int

    public init(column: Int = 0, row: Int = 0, cols: Int, rows: Int) {
        self.column = column
        self.row = row
        self.cols = max(1, cols)
        self.rows = max(1, rows)
    }
}
