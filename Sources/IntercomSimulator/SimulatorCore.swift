import CMicroHTTPD
import Foundation
import IntercomPanel
import Synchronization
import IntercomBase

/// The request handling behind `SimulatedPanelHTTPServer`, reached from libmicrohttpd's
/// connection threads through the daemon's `void *` argument.
final class SimulatorCore: Sendable {
    let options: SimulatedPanelOptions
    let realm = "Beward"

    private struct State {
        var counts: [String: Int] = [:]
        var frame = 0
        var subscribers: [ObjectIdentifier: AlarmSubscriber] = [:]
        var doorWatchers: [UUID: AsyncStream<SimulatedDoorEvent>.Continuation] = [:]
        var lockedUntil = Date.distantPast
        /// `UpTime` counts from here; a minute before start, so a reboot makes it go back.
        var bootedAt = Date().addingTimeInterval(-60)
        /// `rsyslog_cgi`'s settings, as a factory-fresh panel has them until `action=set` changes them.
        var rsyslog: [(String, String)] = [("Enable", "off"), ("Protocol", "udp"), ("ServerAddress", ""), ("ServerPort", "514"),
                                           ("LogLevel", "6")]
    }

    /// `rsyslog_cgi?action=get`.
    var rsyslog: [(String, String)] { state.withLock { $0.rsyslog } }

    /// `rsyslog_cgi?action=set`: the keys given replace theirs (`intercom setup --syslog --yes`).
    func setRsyslog(_ query: (String) -> String?) {
        state.withLock { s in
            s.rsyslog = s.rsyslog.map { key, value in (key, query(key) ?? value) }
        }
    }

    private let state = Mutex(State())
    /// Apart from `state`: read on every request, changed by tests while the server runs.
    private let currentFaults: Mutex<SimulatedPanelFaults>
    /// Set while the daemon stops, so never-ending alarm responses end and MHD can join their threads.
    private let stopping = Atomic<Bool>(false)

    init(options: SimulatedPanelOptions) {
        self.options = options
        currentFaults = Mutex(options.faults)
    }

    var faults: SimulatedPanelFaults {
        get { currentFaults.withLock { $0 } }
        set { currentFaults.withLock { $0 = newValue } }
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }
    func setStopping(_ value: Bool) { stopping.store(value, ordering: .relaxed) }

    // MARK: counters and events

    func count(_ key: String) {
        state.withLock { $0.counts[key, default: 0] += 1 }
    }

    func requestCount(_ key: String) -> Int {
        state.withLock { $0.counts[key] ?? 0 }
    }

    func addSubscriber(_ s: AlarmSubscriber) {
        state.withLock { $0.subscribers[ObjectIdentifier(s)] = s }
    }

    func removeSubscriber(_ s: AlarmSubscriber) {
        state.withLock { $0.subscribers[ObjectIdentifier(s)] = nil }
    }

    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A reboot as a client sees it: `UpTime` starts again, and open alarm streams stay open but
    /// silent for ever (the panel forgot them and sends no FIN; no keep-alive will reveal it).
    func reboot() {
        state.withLock { s in
            s.bootedAt = Date()
            s.subscribers.removeAll()
        }
    }

    /// `systeminfo_cgi` `UpTime`: `d.hh:mm:ss`.
    var uptimeText: String {
        let seconds = max(0, Int(Date().timeIntervalSince(state.withLock { $0.bootedAt })))
        let (days, rest) = seconds.quotientAndRemainder(dividingBy: 86_400)
        return "\(days)." + String(format: "%02d:%02d:%02d", rest / 3600, rest % 3600 / 60, rest % 60)
    }

    func doorEvents() -> AsyncStream<SimulatedDoorEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SimulatedDoorEvent.self)
        let id = UUID()
        state.withLock { $0.doorWatchers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.doorWatchers.removeValue(forKey: id) }
        }
        return stream
    }

    func finishDoorWatchers() {
        let watchers = state.withLock { s in
            defer { s.doorWatchers.removeAll() }
            return Array(s.doorWatchers.values)
        }
        watchers.forEach { $0.finish() }
    }

    /// Writes one `alarmchangestate_cgi` line to every open stream, as firmware does: LF only and
    /// the fifth field naming the input or relay (`number`, 1-based), not a channel 0.
    func emit(_ kind: PanelAlarm.Kind, active: Bool, number: Int = 1) {
        let name: String
        switch kind {
        case .ding: name = "SensorAlarm"
        case .motion: name = "MotionDetection"
        case .door: name = "SensorOutAlarm"
        }
        let line = "\(Self.panelTimestamp());\(name);\(active ? 1 : 0);\(number)\n"
        let subscribers = state.withLock { Array($0.subscribers.values) }
        subscribers.forEach { $0.push(line) }
    }

    /// Opens a door: every door watcher hears it with `method` ("http" from a CGI, "dtmf" from a call)
    /// and the alarm stream reports the relay active, then released.
    func doorOpened(_ door: Door, method: String = "http") {
        let relay = options.relayMs
        let watchers = state.withLock { s in
            s.lockedUntil = Date().addingTimeInterval(Double(relay) / 1000)
            return Array(s.doorWatchers.values)
        }
        watchers.forEach { $0.yield(SimulatedDoorEvent(door: door, method: method)) }
        // DS reports its relays (SensorOutAlarm); no source shows a DKS doing so.
        guard options.isDSFamily || options.dksRelayAlarm else { return }
        let number = door.dsOutput + 1
        emit(.door, active: true, number: number)
        // The relay releases by itself after the unlock time, as DS panels seem to do.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(relay)) { [weak self] in
            self?.emit(.door, active: false, number: number)
        }
    }

    var isLocked: Bool { state.withLock { Date() >= $0.lockedUntil } }

    func nextFrame() -> Int {
        state.withLock { s in
            s.frame += 1
            return s.frame
        }
    }

    static func panelTimestamp(_ date: Date = Date(), separator: String = ";") -> String {
        let local = LocalTime(date)
        return local.date + separator + local.clock
    }

    static func clockText(_ date: Date = Date()) -> String {
        String(panelTimestamp(date).suffix(8))
    }
}
