/// `[panel] record`: which of a panel's calls leave a video clip in the journal besides their pictures.
/// `calls` keeps every answered call (liblinphone records both sides' audio and the panel's video);
/// `rings` also keeps the panel's camera stream from the ring on, answered or not, so a missed
/// visitor leaves a clip too.
public enum RecordMode: String, Sendable, Equatable, CaseIterable {
    case off
    case calls
    case rings

    /// Answered calls are recorded.
    public var recordsCalls: Bool { self != .off }
    /// Rings are recorded from the panel's RTSP stream.
    public var recordsRings: Bool { self == .rings }
}
