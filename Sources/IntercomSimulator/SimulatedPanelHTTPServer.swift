import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import IntercomPanel
import Synchronization

/// A Beward panel's HTTP CGI API on 127.0.0.1, for `intercom demo`, `simulate-panel` and tests.
///
/// libmicrohttpd runs a thread per connection, so the never-ending alarm stream stays
/// open while snapshots and door calls are served. "Connection refused" is simply a
/// server that was never started or has been stopped.
public final class SimulatedPanelHTTPServer: Sendable {
    public let options: SimulatedPanelOptions
    let core: SimulatorCore
    private let running = Mutex<RunningDaemon?>(nil)
    private let boundPort = Atomic<UInt16>(0)

    public init(options: SimulatedPanelOptions = .init()) {
        self.options = options
        self.core = SimulatorCore(options: options)
    }

    deinit { stop() }

    /// Starts listening (on `port`, else `options.port`, 0 = any free one) and returns the bound port.
    @discardableResult
    public func start(port: UInt16? = nil) throws(SimulatorError) -> UInt16 {
        let wanted = port ?? options.port
        let core = self.core
        let bound = try running.withLock { (slot: inout RunningDaemon?) throws(SimulatorError) -> UInt16 in
            if let existing = slot.take() {
                let port = existing.port
                slot = consume existing
                return port
            }
            core.setStopping(false)
            guard let daemon = RunningDaemon(core: core, port: wanted) else {
                throw .cannotStart(port: wanted)
            }
            let port = daemon.port
            slot = consume daemon
            return port
        }
        boundPort.store(bound, ordering: .relaxed)
        return bound
    }

    /// Closes the listening socket and every open connection, alarm streams included.
    /// The counters survive, so a test can restart on the same port and keep counting.
    public func stop() {
        core.setStopping(true)
        running.withLock { $0 = nil }
        boundPort.store(0, ordering: .relaxed)
    }

    /// The bound port, or 0 when stopped.
    public var port: UInt16 { boundPort.load(ordering: .relaxed) }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Authenticated requests per CGI name ("images_cgi") or per CGI and action
    /// ("intercom_cgi?action=maindoor"); "401" counts auth challenges sent, "500" the server errors;
    /// "authorization:basic", "authorization:digest" and "authorization:other" count the requests that
    /// carried credentials of that scheme, granted or not.
    public func requestCount(_ endpoint: String) -> Int { core.requestCount(endpoint) }

    /// The faults requests meet from now on (slow, broken or half pictures, 500s); `.none` heals the panel.
    public func setFaults(_ faults: SimulatedPanelFaults) { core.faults = faults }

    public var faults: SimulatedPanelFaults { core.faults }

    /// Open `alarmchangestate_cgi` responses right now.
    public var alarmStreamCount: Int { core.subscriberCount }

    /// Reboots the panel as a client sees it: `UpTime` starts again; open alarm streams stay open,
    /// silent, and are no longer counted.
    public func reboot() { core.reboot() }

    /// Every door opened from now on (through HTTP, or by DTMF when a `SimulatedPanel` owns this server);
    /// each call makes an independent stream.
    public func doorEvents() -> AsyncStream<SimulatedDoorEvent> { core.doorEvents() }

    /// Writes an alarm line to every open alarm stream.
    public func emitAlarm(_ kind: PanelAlarm.Kind, active: Bool) { core.emit(kind, active: active) }

    /// A visitor presses the call button: `SensorAlarm` 1, then 0 after `releaseAfter`.
    public func ding(releaseAfter: Duration = .milliseconds(500)) {
        core.emit(.ding, active: true)
        let core = self.core
        let (s, atto) = releaseAfter.components
        let ms = Int(s) * 1000 + Int(atto / 1_000_000_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(ms)) {
            core.emit(.ding, active: false)
        }
    }
}

/// A started MHD daemon and the nonce seed it points into; dropping it stops the daemon.
private struct RunningDaemon: ~Copyable {
    let daemon: OpaquePointer
    let seed: UnsafeMutableRawBufferPointer
    let port: UInt16

    init?(core: SimulatorCore, port: UInt16) {
        let seed = UnsafeMutableRawBufferPointer.allocate(byteCount: 32, alignment: 8)
        var rng = SystemRandomNumberGenerator()
        for i in 0..<seed.count { seed[i] = rng.next() }
        let context = Unmanaged.passUnretained(core).toOpaque()
        let started = intercom_mhd_start_loopback(
            port,
            { cls, connection, url, _, _, _, _, _ in
                guard let cls, let connection else { return .NO }
                let core = Unmanaged<SimulatorCore>.fromOpaque(cls).takeUnretainedValue()
                return core.handle(connection, url: url.map { String(cString: $0) } ?? "/")
            },
            context, seed.baseAddress, seed.count, 0)
        guard let started else {
            seed.deallocate()
            return nil
        }
        self.daemon = started
        self.seed = seed
        self.port = intercom_mhd_bound_port(started)
    }

    deinit {
        // Joins every connection thread, so nothing reads the seed or the core afterwards.
        MHD_stop_daemon(daemon)
        seed.deallocate()
    }
}
