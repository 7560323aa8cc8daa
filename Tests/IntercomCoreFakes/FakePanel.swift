import Foundation
import IntercomBase
import IntercomCore
import IntercomImaging
import IntercomPanel
import Synchronization

/// A panel's HTTP API in engine tests: records each door it was asked to open and each snapshot
/// taken, answers with a small JPEG, fails on demand, and sends alarm events when told.
package final class FakePanel: PanelService {
    private struct State {
        var failure: PanelError?
        var feeds: [UUID: AsyncStream<AlarmStream.Event>.Continuation] = [:]
    }

    package let name: String
    /// Every door the engine asked to open, whether it opened or not.
    package let doorRequests = Ledger<Door>()
    /// One entry per snapshot asked for, numbered from 1.
    package let snapshots = Ledger<Int>()
    /// One entry per alarm feed the engine opened.
    package let alarmFeeds = Ledger<Int>()
    /// A 64×48 JPEG, what every snapshot returns.
    package let jpeg: Data
    private let state = Mutex(State())

    package init(name: String) {
        self.name = name
        jpeg = (try? JPEG.encode(RGBImage(width: 64, height: 48))) ?? Data()
    }

    /// Every request fails with `error` from now on (nil: the panel works again).
    package func fail(with error: PanelError?) {
        state.withLock { $0.failure = error }
    }

    /// Sends `event` on every open alarm feed.
    package func sendAlarm(_ event: AlarmStream.Event) {
        for feed in state.withLock({ Array($0.feeds.values) }) { feed.yield(event) }
    }

    package func open(door: Door) async throws(PanelError) {
        doorRequests.append(door)
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    package func snapshot() async throws(PanelError) -> Data {
        snapshots.append(snapshots.count + 1)
        if let failure = state.withLock({ $0.failure }) { throw failure }
        return jpeg
    }

    package func alarmFeed() -> any PanelAlarmFeed {
        let id = UUID()
        let (events, sink) = AsyncStream<AlarmStream.Event>.makeStream()
        state.withLock { $0.feeds[id] = sink }
        alarmFeeds.append(alarmFeeds.count + 1)
        return FakeAlarmFeed(events: events)
    }
}

struct FakeAlarmFeed: PanelAlarmFeed {
    let events: AsyncStream<AlarmStream.Event>
}
