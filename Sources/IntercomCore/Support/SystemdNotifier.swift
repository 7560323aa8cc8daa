import CSystemd
import Foundation

/// sd_notify for `Type=notify` units: READY once serving, WATCHDOG pings at half the unit's
/// WatchdogSec, STOPPING on the way out. Outside systemd (no NOTIFY_SOCKET) every call is a no-op.
public final class SystemdNotifier: Sendable {
    private let watchdog: Task<Void, Never>?

    /// `alive` is awaited before each ping: a core that no longer answers (a stuck actor) stops the
    /// pings and systemd restarts the daemon.
    public init(alive: @escaping @Sendable () async -> Void = {}) {
        var usec: UInt64 = 0
        if sd_watchdog_enabled(0, &usec) > 0, usec > 0 {
            let interval = Duration.microseconds(Int64(usec / 2))
            watchdog = Task.detached {
                while !Task.isCancelled {
                    await alive()
                    _ = sd_notify(0, "WATCHDOG=1")
                    try? await Task.sleep(for: interval)
                }
            }
        } else {
            watchdog = nil
        }
    }

    public func ready(status: String) { _ = sd_notify(0, "READY=1\nSTATUS=\(status)") }
    public func reloading() { _ = sd_notify(0, "RELOADING=1") }
    public func stopping() {
        watchdog?.cancel()
        _ = sd_notify(0, "STOPPING=1")
    }
}
