/// The `[audio]` section: device names as `intercom doctor` lists them.
public struct AudioSettings: Sendable, Equatable {
    public var playback: String
    public var capture: String
    /// The device the speaker toggle switches to.
    public var speaker: String
    /// A WAV path or a bundled ringtone name.
    public var ringtone: String

    public init(playback: String = "default", capture: String = "default",
                speaker: String = "default", ringtone: String = "default") {
        self.playback = playback
        self.capture = capture
        self.speaker = speaker
        self.ringtone = ringtone
    }

    public static let defaults = AudioSettings()
}
