/// Whether an incoming call from a panel is answered without the user.
public enum AutoAnswer: Sendable, Equatable {
    case off
    case on
    case after(seconds: Double)

    /// Seconds to wait before answering, or nil when auto-answer is off.
    public var delaySeconds: Double? {
        switch self {
        case .off: return nil
        case .on: return 0
        case .after(let seconds): return seconds
        }
    }
}
