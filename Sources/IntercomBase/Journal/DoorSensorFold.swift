import Foundation

/// Which of a panel's door-sensor changes (`panel_event` kind `door`: Beward's `SensorOutAlarm`,
/// the lock relay energised, then released) only echo an opening we made, so the journal and
/// the screen show one opening instead of an opening plus its on/off rows (issue 25).
///
/// A change belongs to the panel's latest successful opening when it comes at most `after`
/// seconds after it, or at most `before` seconds ahead of it (the alarm stream's line can
/// outrun the HTTP answer that reports the opening); and the `off` that releases a relay whose
/// `on` was folded belongs to it too, however long the panel holds the door (its `DoorOpenTime`).
/// Anything else — a key or code at the panel, a door forced — stays an entry of its own.
/// Events themselves are never folded: hooks, MQTT and `ctl events` see every change.
public struct DoorSensorFold: Sendable {
    /// A sensor change kept as its own entry, remembered briefly in case its opening follows.
    public struct Change: Sendable, Equatable {
        public let row: Int64
        public let state: String
        public let time: Date
        public init(row: Int64, state: String, time: Date) {
            self.row = row
            self.state = state
            self.time = time
        }
    }

    public static let after: TimeInterval = 10
    public static let before: TimeInterval = 2
    /// An `on` folded this long ago no longer waits for its `off` (a panel that never sent it).
    static let releaseLimit: TimeInterval = 120

    private struct Opening {
        var row: Int64
        var time: Date
        /// When the folded relay went on and is not yet released.
        var heldSince: Date?
    }

    private var openings: [String: Opening] = [:]
    private var loose: [String: [Change]] = [:]

    public init() {}

    /// Whether `kind` is a door sensor (the only kind folded).
    public static func isDoorSensor(_ kind: String) -> Bool { kind == "door" }

    /// A successful opening of `panel`, journaled as `row`. Returns the changes already kept
    /// that belong to it after all (they came just before): the caller folds and removes them.
    public mutating func opened(panel: String, row: Int64, at time: Date) -> [Change] {
        var opening = Opening(row: row, time: time)
        let earlier = (loose.removeValue(forKey: panel) ?? []).filter {
            $0.time <= time && time.timeIntervalSince($0.time) <= Self.before
        }
        // An `on` just before the opening whose `off` has not come yet: the off folds too.
        if let last = earlier.last, last.state == "on" { opening.heldSince = last.time }
        openings[panel] = opening
        return earlier
    }

    /// A sensor change of `panel`: the row of the opening it folds into, or nil when it is an
    /// entry of its own (the caller then writes it and calls `kept`).
    public mutating func sensor(panel: String, state: String, at time: Date) -> Int64? {
        guard var opening = openings[panel] else { return nil }
        let since = time.timeIntervalSince(opening.time)
        let releases = state == "off" && opening.heldSince.map { time.timeIntervalSince($0) <= Self.releaseLimit } == true
        guard (since >= 0 && since <= Self.after) || releases else {
            // The relay went on by itself (a key at the panel): that opening no longer owns it.
            if state == "on" || (since > Self.after && opening.heldSince == nil) { openings[panel] = nil }
            return nil
        }
        opening.heldSince = state == "on" ? time : nil
        openings[panel] = opening
        return opening.row
    }

    /// A change written as its own entry: an opening reported within `before` still takes it.
    public mutating func kept(panel: String, _ change: Change) {
        var list = loose[panel] ?? []
        list.removeAll { change.time.timeIntervalSince($0.time) > Self.before }
        list.append(change)
        loose[panel] = list
    }
}
