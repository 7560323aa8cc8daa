/// How DTMF digits are sent in a call. Panels differ in how long a tone must
/// last before the relay reacts, hence the knobs.
public struct DTMFTiming: Sendable, Equatable {
    public var durationMs: Int
    public var gapMs: Int
    /// How many times the whole sequence is sent (1...10).
    public var `repeat`: Int

    public init(durationMs: Int = 250, gapMs: Int = 500, repeat: Int = 1) {
        self.durationMs = durationMs
        self.gapMs = gapMs
        self.repeat = `repeat`
    }

    public static let defaults = DTMFTiming()
}
