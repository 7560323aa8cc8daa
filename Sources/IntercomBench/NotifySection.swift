import Foundation

/// BENCHMARKS.md's section for desktop notifications (issue 27): a ring shown, and Open pressed on it.
func notifySection() async throws {
    line("### Desktop notifications (issue 27)")
    line()
    let n = try await NotifyBench.run(intercom: intercom, work: work, calls: min(calls, 10))
    let cpu = BenchMachine.cpuModel()
    let load = BenchMachine.loadAverage()
    line("Run \(n.date) on \(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpu)); load average after: \(load).")
    line()
    line("`intercom daemon --events json` with `[notify] desktop = on` and one simulated panel (its HTTP server in the bench")
    line("process, `open = http`), on a private session bus: `dbus-daemon --session` with the end-to-end test's notification")
    line("server (NotificationServerStub, python3-gi, offering actions), which logs each call with the wall time it arrived.")
    line("A liblinphone caller in the bench rings as the panel; \(NotifyBench.warmUps) warm-up ring, not counted. Shown: from the")
    line("`call_incoming` event's own `time` (made in the engine, ms resolution) to the Notify call arriving at the server.")
    line("Open: from the server logging ActionInvoked(open) (just before it emits the signal) to the simulated panel counting")
    line("`intercom_cgi?action=maindoor` (polled every 0.2 ms); the daemon answers the call to open the door.")
    line()
    line("| measure | target | result | |")
    line("|---|---|---|---|")
    line("| `call_incoming` → notification shown (Notify at the server) | ≤ 50 ms median | \(n.ringToShown.format()) | \(ok(n.ringToShown.median <= 50)) |")
    line("| ActionInvoked(open) → door request at the panel | ≤ 30 ms median | \(n.openToDoor.format()) | \(ok(n.openToDoor.median <= 30)) |")
    line("| failed rounds | 0 | \(n.failures) | |")
    line("| door requests the panel counted | \(n.ringToShown.values.count + NotifyBench.warmUps) | \(n.doorsSeen) | |")
    line()
}
