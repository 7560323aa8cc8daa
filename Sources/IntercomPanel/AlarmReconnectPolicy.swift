import Foundation
import Synchronization

/// What the alarm stream does after each attempt, kept apart from the HTTP so a test can run
/// minutes of a panel's life on a manual clock (docs/BEWARD.md "Alarm stream").
///
/// Three outcomes, because firmware has three ways of ending a stream:
/// - it streamed (a valid line arrived, or it stayed open past `confirmAfter`): routine, reopen soon;
/// - it answered 2xx but has no stream: "`alarmchangestate_cgi` is not defined", or a close before
///   any valid line. Said once; asked again only every `maxBackoff`, since firmware does not grow
///   a CGI while we run (an update reboots the panel, and the next attempt finds it);
/// - it failed (no connection, 401, 5xx …): back off doubling; "unreachable" after several in a row.
package struct AlarmReconnectPolicy: Sendable {
    package enum Outcome: Sendable, Equatable {
        case streamed
        case noStream(PanelError)
        case failed(PanelError)
    }

    private let options: AlarmStream.Options
    private var backoff: Duration
    private var consecutiveFailures = 0
    private var reportedDown = false
    private var reportedNoStream = false

    package init(options: AlarmStream.Options) {
        self.options = options
        backoff = options.initialBackoff
    }

    /// The attempt is a stream: `.reachable` if "unreachable" was said, then `.connected`.
    package mutating func confirmed() -> [AlarmStream.Event] {
        var events = answered()
        reportedNoStream = false
        events.append(.connected)
        return events
    }

    /// What to say about an attempt that ended, and how long to wait before the next one.
    package mutating func ended(_ outcome: Outcome) -> (events: [AlarmStream.Event], delay: Duration) {
        switch outcome {
        case .streamed:
            backoff = options.initialBackoff
            return ([], backoff)
        case .noStream(let error):
            var events = answered()
            if !reportedNoStream { events.append(.noAlarmStream(error)) }
            reportedNoStream = true
            backoff = options.initialBackoff
            return (events, options.maxBackoff)
        case .failed(let error):
            consecutiveFailures += 1
            var events: [AlarmStream.Event] = []
            if consecutiveFailures >= options.failuresBeforeUnreachable, !reportedDown {
                reportedDown = true
                events.append(.unreachable(error))
            }
            let delay = backoff
            backoff = min(backoff * 2, options.maxBackoff)
            return (events, delay)
        }
    }

    /// The panel answered over HTTP: failures in a row end, and a reported outage is over.
    private mutating func answered() -> [AlarmStream.Event] {
        consecutiveFailures = 0
        defer { reportedDown = false }
        return reportedDown ? [.reachable] : []
    }
}

/// The policy shared by one stream's attempts and their confirm timers.
final class SharedAlarmPolicy: Sendable {
    private let policy: Mutex<AlarmReconnectPolicy>

    init(options: AlarmStream.Options) { policy = Mutex(AlarmReconnectPolicy(options: options)) }

    func confirmed() -> [AlarmStream.Event] { policy.withLock { $0.confirmed() } }

    func ended(_ outcome: AlarmReconnectPolicy.Outcome) -> (events: [AlarmStream.Event], delay: Duration) {
        policy.withLock { $0.ended(outcome) }
    }
}
