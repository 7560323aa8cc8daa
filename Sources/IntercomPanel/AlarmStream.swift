import Foundation
import IntercomHTTP
import Synchronization

/// Follows a panel's `alarmchangestate_cgi` for as long as it lives (§4 of the API notes).
///
/// The stream uses an HTTP client (and connection) of its own because it never ends and would
/// otherwise block snapshots and door calls queued on the panel's main client. It costs no
/// thread: the process's `HTTPEventLoop` runs every panel's stream.
/// EOF and idle timeouts are routine and lead to a reconnect; only several failed
/// connects in a row are reported as the panel being unreachable. Firmware without the stream
/// answers 200 and closes: that is said once as `.noAlarmStream`, never as a connect
/// (`AlarmReconnectPolicy` decides what is said and when to ask again).
///
/// Keep the `AlarmStream` itself alive while reading `events`: releasing it stops the
/// stream, so a forgotten stream cannot keep a connection busy forever.
public final class AlarmStream: Sendable {
    public struct Options: Sendable {
        public var initialBackoff: Duration
        public var maxBackoff: Duration
        /// Consecutive failed connects before `.unreachable` is reported.
        public var failuresBeforeUnreachable: Int
        /// With no byte for this long the connection is reopened. No public source shows a panel
        /// sending keep-alives, so a quiet stream is normal: this is long (AT reopens every 30 min);
        /// `silenceCheck` finds a panel that is gone or rebooted sooner.
        public var idleTimeout: Duration
        /// A 2xx stream that stays open this long without closing counts as connected, even before
        /// its first line; one that closes sooner without a valid line has no alarm stream.
        public var confirmAfter: Duration
        /// A connected stream silent this long is checked through the panel's main connection
        /// (`systeminfo_cgi` `UpTime`): no answer ends it as a failure, an uptime that went back
        /// (a reboot, whose old connection is dead but never closed) reopens it.
        public var silenceCheck: Duration

        public init(
            initialBackoff: Duration = .seconds(1),
            maxBackoff: Duration = .seconds(30),
            failuresBeforeUnreachable: Int = 3,
            idleTimeout: Duration = .seconds(30 * 60),
            confirmAfter: Duration = .seconds(2),
            silenceCheck: Duration = .seconds(120)
        ) {
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
            self.failuresBeforeUnreachable = failuresBeforeUnreachable
            self.idleTimeout = idleTimeout
            self.confirmAfter = confirmAfter
            self.silenceCheck = silenceCheck
        }
    }

    public enum Event: Sendable, Equatable {
        /// The stream is open (again). Edges may have been missed while it was down,
        /// so consumers reset "ringing" / "relay active" state here.
        case connected
        case alarm(PanelAlarm)
        /// Reported once after `failuresBeforeUnreachable` failed connects in a row.
        case unreachable(PanelError)
        /// The first successful connect after `.unreachable`.
        case reachable
        /// The panel answers but has no alarm stream ("`alarmchangestate_cgi` is not defined", or a
        /// close before any valid line). Said once; it is asked again only every `maxBackoff`.
        case noAlarmStream(PanelError)
    }

    public let events: AsyncStream<Event>
    private let task: Task<Void, Never>

    init(panel: BewardPanel, options: Options) {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(256))
        self.events = events
        let url = panel.url(cgi: "alarmchangestate_cgi",
                            query: "channel=0&parameter=MotionDetection;SensorAlarm;SensorOutAlarm")
        task = Task.detached {
            await Self.run(panel: panel, url: url, options: options, continuation: continuation)
            continuation.finish()
        }
        continuation.onTermination = { [task] _ in task.cancel() }
    }

    /// Stops reconnecting and ends `events`; the open transfer is aborted at once.
    public func cancel() { task.cancel() }

    deinit { task.cancel() }

    private static func run(
        panel: BewardPanel, url: String, options: Options,
        continuation: AsyncStream<Event>.Continuation
    ) async {
        let client: HTTPClient
        do {
            client = try HTTPClient(configuration: panel.configuration, label: "\(panel.name).alarms",
                                    loop: panel.client.loop)
        } catch {
            continuation.yield(.unreachable(panel.map(error)))
            return
        }
        let policy = SharedAlarmPolicy(options: options)

        while !Task.isCancelled {
            let attempt = AlarmAttempt(policy: policy, continuation: continuation)
            let transfer = Task { () -> Result<HTTPResponse, HTTPError> in
                do throws(HTTPError) {
                    return .success(try await client.stream(
                        url, idleTimeout: options.idleTimeout,
                        onOpen: { status in attempt.opened(status: status) },
                        onChunk: { chunk in attempt.feed(chunk) }))
                } catch {
                    return .failure(error)
                }
            }
            // Owned by this attempt: confirms a quiet stream, checks a silent one; cancelled and awaited below.
            let watcher = Task {
                await AlarmSilenceWatch.run(attempt: attempt, panel: panel, options: options, transfer: transfer)
            }
            let result = await withTaskCancellationHandler {
                await transfer.value
            } onCancel: {
                transfer.cancel()
            }
            watcher.cancel()
            await watcher.value
            if Task.isCancelled { return }

            let outcome: AlarmReconnectPolicy.Outcome
            if let aborted = attempt.aborted {
                outcome = aborted
            } else {
                switch result {
                case .success(let response): outcome = attempt.outcome(afterAnswer: response, panel: panel)
                case .failure(.cancelled): return
                case .failure(let error): outcome = attempt.outcome(afterError: panel.map(error), panel: panel)
                }
            }
            let (events, delay) = policy.ended(outcome)
            events.forEach { continuation.yield($0) }
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
        }
    }
}
