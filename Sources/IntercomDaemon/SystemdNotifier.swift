import CSystemd
import Foundation
import Synchronization

/// sd_notify for `Type=notify` units: READY once serving, WATCHDOG pings at half the unit's
/// WatchdogSec, STOPPING on the way out. Outside systemd (no NOTIFY_SOCKET) every call is a no-op.
public final class SystemdNotifier: Sendable {
    private let alive: @Sendable () async -> Void
    /// Pings begin with the first READY: systemd ignores (and a strict reader rejects) a WATCHDOG
    /// that arrives before the service said it is up.
    private let watchdog = Mutex<Task<Void, Never>?>(nil)

    /// `alive` is awaited before each ping: a core that no longer answers (a stuck actor) stops the
    /// pings and systemd restarts the daemon.
    public init(alive: @escaping @Sendable () async -> Void = {}) {
        self.alive = alive
    }

    public func ready(status: String) {
        _ = sd_notify(0, "READY=1\nSTATUS=\(status)")
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return }
        let interval = Duration.microseconds(Int64(usec / 2))
        watchdog.withLock { task in
            guard task == nil else { return }
            task = Task.detached { [alive] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    await alive()
                    _ = sd_notify(0, "WATCHDOG=1")
                }
            }
        }
    }

    public func reloading() { _ = sd_notify(0, "RELOADING=1") }

    public func stopping() {
        watchdog.withLock { $0?.cancel() }
        _ = sd_notify(0, "STOPPING=1")
    }
}
