import Foundation
import IntercomBase
import IntercomPanel

/// What the engine asks of a panel's HTTP API: open a door, a JPEG snapshot, the alarm stream.
/// `BewardPanel` is the production one; the engine tests use a fake that records what it was asked.
public protocol PanelService: Sendable {
    /// The panel's name (as `[panel NAME]` has it).
    var name: String { get }
    func open(door: Door) async throws(PanelError)
    /// The camera's current picture, as the JPEG the panel sent.
    func snapshot() async throws(PanelError) -> Data
    /// The panel's alarm events (button, motion, relay) and reachability, until the feed is dropped.
    func alarmFeed() -> any PanelAlarmFeed
}

/// A running alarm stream: reading `events` keeps it going; dropping the feed stops it.
public protocol PanelAlarmFeed: Sendable {
    var events: AsyncStream<AlarmStream.Event> { get }
}

extension AlarmStream: PanelAlarmFeed {}

extension BewardPanel: PanelService {
    public func alarmFeed() -> any PanelAlarmFeed { alarmStream() }
}
