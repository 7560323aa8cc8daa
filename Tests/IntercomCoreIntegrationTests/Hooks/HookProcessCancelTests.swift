import Foundation
@testable import IntercomDaemon
import IntercomTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A hook whose wait is cancelled (its owner going away) is ended like one past its timeout —
/// SIGTERM to its group, SIGKILL after the grace — and reaped, without the wait spinning: it used to
/// loop on a sleep that cancellation cuts short, a core busy until the hook died.
@Suite struct HookProcessCancelTests {
    @Test func aCancelledWaitEndsTheHookWithoutSpinning() async throws {
        // Ignores SIGTERM (and so does its `sleep`, which inherits the ignored signal): only SIGKILL ends it.
        let ready = NSTemporaryDirectory() + "intercom-hook-ready-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: ready) }
        let pid = try HookProcess.spawn(program: "/bin/sh", arguments: ["-c", "trap '' TERM; : > \"$1\"; sleep 30", "hook", ready],
                                        environment: ["PATH": "/usr/bin:/bin"]).get()
        // Cancelled before the trap is set, the SIGTERM would end it at once and show nothing.
        let clock = ContinuousClock()
        guard await TestPatience.eventually(within: .seconds(10), every: .milliseconds(5), {
            FileManager.default.fileExists(atPath: ready)
        }) else { kill(pid, SIGKILL); throw CancellationError() }
        let started = clock.now
        let cpuBefore = Self.processCPUSeconds()
        let waiting = Task { await HookProcess.wait(pid, timeout: .seconds(60), grace: .seconds(1)) }
        waiting.cancel()
        let outcome = await waiting.value
        let cpu = Self.processCPUSeconds() - cpuBefore
        #expect(outcome == .timedOut, "\(outcome)")
        #expect(clock.now - started >= .milliseconds(900), "ended by the SIGKILL after the grace, not the SIGTERM")
        #expect(kill(pid, 0) != 0, "the hook was reaped")
        // CPU seconds, not wall time: a spinning wait costs about a second of CPU over the 1 s grace.
        #expect(cpu < 0.4, "the wait used \(cpu) s of CPU during the 1 s grace")
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
    }
}
