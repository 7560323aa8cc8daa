/// The mode to draw with and the reason, so `intercom doctor` can say why.
public struct GraphicsChoice: Sendable, Equatable {
    public var mode: GraphicsMode
    public var reason: String
    /// Pixel sequences have to be wrapped for tmux (only when a pixel mode was forced there).
    public var tmuxPassthrough: Bool

    public init(mode: GraphicsMode, reason: String, tmuxPassthrough: Bool = false) {
        self.mode = mode
        self.reason = reason
        self.tmuxPassthrough = tmuxPassthrough
    }
}
