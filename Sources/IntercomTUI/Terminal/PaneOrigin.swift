/// Where our tmux pane starts on the real terminal, 0-based. A sequence passed through tmux
/// lands wherever the real terminal's cursor is, behind tmux's back, so a picture placed
/// absolutely carries its own cursor move, offset by this.
public struct PaneOrigin: Sendable, Equatable {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    public static let zero = PaneOrigin(row: 0, column: 0)
}
