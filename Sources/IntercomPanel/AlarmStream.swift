import Foundation
import IntercomHTTP
import Synchronization

/// Follows a panel's `alarmchangestate_cgi` for as long as it lives (§4 of the API notes).
///
/// The stream uses an HTTP client (and connection) of its own because it never ends and would
/// otherwise block snapshots and door calls queued on the panel's main client. It costs no
/// thread: the process's `HTTPEventLoop` runs every panel's stream.
/// EOF and idle timeouts are routine and lead to a reconnect; only several failed
/// connects in a row are reported as the panel being unreachable.
///
/// Keep the `AlarmStream` itself alive while reading `events`: releasing it stops the
/// stream, so a forgotten stream cannot keep a connection busy forever.
public final class AlarmStream: Sendable {
    public struct Options: Sendable {
        public var initialBackoff: Duration
        public var maxBackoff: Duration
        /// Consecutive failed connects before `.unreachable` is reported.
        public var failuresBeforeUnreachable: Int
        /// With no byte for this long the connection is presumed dead and reopened.
        public var idleTimeout: Duration

        public init(
            initialBackoff: Duration = .seconds(1),
            maxBackoff: Duration = .seconds(30),
            failuresBeforeUnreachable: Int = 3,
            idleTimeout: Duration = .seconds(120)
        ) {
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
            self.failuresBeforeUnreachable = failuresBeforeUnreachable
            self.idleTimeout = idleTimeout
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
        let health = Mutex(Health())
        var backoff = options.initialBackoff

        while !Task.isCancelled {
            let splitter = LineSplitter()
            let opened = Atomic<Bool>(false)
            var failure: PanelError?
            do {
                let response = try await client.stream(
                    url, idleTimeout: options.idleTimeout,
                    onOpen: { _ in
                        opened.store(true, ordering: .relaxed)
                        let wasDown = health.withLock { $0.connected() }
                        if wasDown { continuation.yield(.reachable) }
                        continuation.yield(.connected)
                    },
                    onChunk: { chunk in
                        for line in splitter.feed(chunk) {
                            if let alarm = PanelAlarm(line: line) { continuation.yield(.alarm(alarm)) }
                        }
                        return true
                    })
                if !opened.load(ordering: .relaxed) {
                    // A finished non-2xx answer: 401, 404, "is not defined" …
                    do {
                        _ = try panel.check(response, cgi: "alarmchangestate_cgi")
                        failure = .badData("panel \(panel.name) closed the alarm stream without answering")
                    } catch {
                        failure = error
                    }
                }
            } catch .cancelled {
                return
            } catch {
                if !opened.load(ordering: .relaxed) { failure = panel.map(error) }
            }
            if Task.isCancelled { return }

            if let failure {
                let report = health.withLock { $0.failed(threshold: options.failuresBeforeUnreachable) }
                if report { continuation.yield(.unreachable(failure)) }
            } else {
                backoff = options.initialBackoff
            }
            do {
                try await Task.sleep(for: backoff)
            } catch {
                return
            }
            if failure != nil { backoff = min(backoff * 2, options.maxBackoff) }
        }
    }

    /// Counts failed connects and remembers whether "unreachable" was said,
    /// so each transition is reported exactly once.
    private struct Health {
        var consecutiveFailures = 0
        var reportedDown = false

        /// True when `.reachable` is due.
        mutating func connected() -> Bool {
            consecutiveFailures = 0
            defer { reportedDown = false }
            return reportedDown
        }

        /// True when `.unreachable` is due.
        mutating func failed(threshold: Int) -> Bool {
            consecutiveFailures += 1
            guard consecutiveFailures >= threshold, !reportedDown else { return false }
            reportedDown = true
            return true
        }
    }
}
