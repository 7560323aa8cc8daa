/// `intercom watch`: the one panel the screen shows, and how often.
public struct WatchOptions: Sendable {
    public var panel: String
    /// `--fps`: the most pictures a second to draw; nil = every frame the live stream has.
    public var fps: Double?

    /// Snapshots a second when there is no live stream and `--fps` says nothing.
    public static let defaultSnapshotFPS: Double = 2

    public init(panel: String, fps: Double? = nil) {
        self.panel = panel
        self.fps = fps
    }

    /// How often the snapshot fallback asks the panel for a picture.
    public var snapshotFPS: Double { fps ?? Self.defaultSnapshotFPS }
}
