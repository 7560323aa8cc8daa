/// `intercom watch`: the one panel (or operator camera) the screen shows, and how often.
public struct WatchOptions: Sendable {
    /// The panel's name, or the operator camera's id (`home:cam:1`) when `camera` is set.
    public var panel: String
    /// `panel` is an operator camera's id that the link already plays (`watchCamera`, asked before the
    /// screen opens so an unknown camera is one line): the screen asks for no panel stream.
    public var camera: Bool
    /// `--fps`: the most pictures a second to draw; nil = every frame the live stream has.
    public var fps: Double?

    /// Snapshots a second when there is no live stream and `--fps` says nothing.
    public static let defaultSnapshotFPS: Double = 2

    public init(panel: String, fps: Double? = nil, camera: Bool = false) {
        self.panel = panel
        self.fps = fps
        self.camera = camera
    }

    /// How often the snapshot fallback asks the panel for a picture.
    public var snapshotFPS: Double { fps ?? Self.defaultSnapshotFPS }
}
