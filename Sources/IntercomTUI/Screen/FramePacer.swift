/// When a slot's next picture may go out, from what the terminal took last: a frame is drawn
/// no sooner than twice the previous frame's write time after that frame began, so the picture
/// uses at most about half of what the terminal (or an SSH link) can take and keys and text
/// still get through. A terminal that keeps up gets every frame the source has; a slow one gets
/// fewer, each the newest (the source is asked for its picture only when one may go out, and
/// nothing waits in a queue). Used from the TUI thread only.
struct FramePacer {
    /// What the last frame of a slot cost.
    struct Record: Equatable {
        var began: ContinuousClock.Instant
        var bytes: Int
        var writeTime: Duration
    }

    /// How much of the terminal's time the pictures may take, as the interval per write time.
    static let share = 2
    /// A terminal that stops reading still lets a frame through this often (the writer gives
    /// up a write after its patience, so this is rarely reached).
    static let longestInterval = Duration.seconds(5)

    private(set) var records: [Int: Record] = [:]

    /// The shortest time from one frame's start to the next one's, after a frame that took `writeTime` to write.
    static func interval(after writeTime: Duration) -> Duration {
        min(writeTime * share, longestInterval)
    }

    func mayDraw(slot: Int, at now: ContinuousClock.Instant) -> Bool {
        guard let last = records[slot] else { return true }
        return last.began.duration(to: now) >= Self.interval(after: last.writeTime)
    }

    mutating func record(slot: Int, began: ContinuousClock.Instant, bytes: Int, writeTime: Duration) {
        records[slot] = Record(began: began, bytes: bytes, writeTime: writeTime)
    }

    mutating func forget() { records.removeAll() }
}
