/// `intercom watch`: the one panel the screen shows and how often its picture is fetched.
public struct WatchOptions: Sendable {
    public var panel: String
    /// Pictures a second to fetch (the peephole's pace).
    public var fps: Double

    public init(panel: String, fps: Double) {
        self.panel = panel
        self.fps = fps
    }
}
