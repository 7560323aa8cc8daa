import IntercomBase
/// Folds repeated door digits into one opening: a door digit within `window` of the previous
/// one for the same door is a repeat (SmartYard sends the code three times, 750 ms apart).
struct DoorDigitFilter: Sendable {
    var window: Duration
    private var lastSeen: [String: ContinuousClock.Instant] = [:]

    init(window: Duration) { self.window = window }

    /// True when this digit is a new opening of `door`.
    mutating func accept(_ door: Door, at now: ContinuousClock.Instant = .now) -> Bool {
        let key = door.description
        defer { lastSeen[key] = now }
        guard let previous = lastSeen[key] else { return true }
        return now - previous >= window
    }

    mutating func reset() { lastSeen.removeAll() }
}
