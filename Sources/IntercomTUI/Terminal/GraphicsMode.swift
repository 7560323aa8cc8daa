/// How a picture reaches the screen. Pixel modes need the terminal's cooperation;
/// `symbols` works in any colour terminal and `ascii` in anything at all.
public enum GraphicsMode: String, Sendable, CaseIterable, Equatable {
    case kitty, sixel, iterm, symbols, ascii

    /// The pixel protocols can't be diffed by cells and need passthrough inside tmux.
    public var isPixel: Bool { self == .kitty || self == .sixel || self == .iterm }

    /// `--graphics` values: the modes plus `auto`.
    public static let optionChoices = ["auto"] + allCases.map(\.rawValue)
}
