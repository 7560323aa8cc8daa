/// `[hooks]`: the program run per event type, and how long an incoming call's hook waits for
/// the call's first picture so that `INTERCOM_SNAPSHOT` can name it.
public struct HookSettings: Sendable, Equatable {
    /// Event type (e.g. `call_incoming`) -> absolute program path.
    public var programs: [String: String]
    /// `snapshot_wait_ms`: 0 runs the hook at once.
    public var snapshotWaitMs: Int

    public static let defaultSnapshotWaitMs = 300

    public init(programs: [String: String] = [:], snapshotWaitMs: Int = defaultSnapshotWaitMs) {
        self.programs = programs
        self.snapshotWaitMs = snapshotWaitMs
    }
}
