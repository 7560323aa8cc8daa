import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// An exposed SIP port is scanned all day (sipvicious, friendly-scanner): thousands of INVITEs
/// from callers matching no panel. Each must get 403 and nothing else — no event, no journal
/// entry — and the daemon must not keep anything per scan: its memory stays flat.
@Suite("faults: a scan of unknown callers", .removesTestFolders) struct DaemonScanTests {
    static let calls = 2000
    static let rate = 200

    @Test("2 000 INVITEs from strangers at 200/s: every one 403, no event, RSS flat, a panel call still works")
    func scanIsRejectedWithoutGrowth() async throws {
        let daemon = try DaemonProcess(config: DaemonProcess.autoAnsweringPanelConfig(), name: "scan")
        try await daemon.waitUntilStarted()
        let pid = daemon.process.pid

        // A first small scan warms up what is allocated once (malloc arenas, belle-sip's channel).
        let warmup = try await Self.scan(daemon, calls: 600)
        #expect(warmup.succeeded, "\(warmup)")
        try await Task.sleep(for: .seconds(1))
        let before = try FaultChecks.residentKiB(pid)
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await Self.scan(daemon, calls: Self.calls)
        let took = clock.now - started
        try await Task.sleep(for: .seconds(1))
        let after = try FaultChecks.residentKiB(pid)
        let statistics = Self.statistics(result.stdout)
        print("scan: \(Self.calls) calls at \(Self.rate)/s took \(took); VmRSS \(before) KiB before, \(after) KiB after "
              + "(\(after - before) KiB); sipp: \(statistics)")
        // Every call refused with its 403, at the read (the SIP read hook): not even liblinphone's own "486 Busy",
        // which came under load when an INVITE slipped past the look before each iterate (DECISIONS "The caller
        // gate at the read").
        #expect(result.succeeded, "not every scan call got its 403: \(statistics)\n\(result)")
        #expect(daemon.process.isRunning, "\(daemon.log)")
        #expect(!daemon.events.contains { DaemonEventChecks.callEvents.contains($0.name) }, "\(daemon.events.prefix(5))")
        // Flat: 2 KiB per call at most. Through liblinphone the same scan grew RSS by about 20 MB.
        #expect(after - before < 4096, "VmRSS grew from \(before) to \(after) KiB over \(Self.calls) calls")

        try await FaultChecks.expectAnswersAPanelCall(daemon, label: "after-scan")
        DaemonEventChecks.expectWellFormed(daemon)
        #expect(await daemon.stop() == 0, "\(daemon.log)")
    }

    static func scan(_ daemon: DaemonProcess, calls: Int) async throws -> Sipp.Result {
        let sipp = try Sipp(scenario: FaultScenarios.scan(), name: "scan", remote: try daemon.hostPort(),
                            service: "resident", timeout: .seconds(60), calls: calls, rate: rate, traceMessages: false)
        return try await sipp.finish(timeout: .seconds(90))
    }

    /// sipp's closing "Successful call" / "Failed call" counts from its final screen.
    static func statistics(_ screen: String) -> String {
        screen.split(separator: "\n").filter { $0.contains("Successful call") || $0.contains("Failed call") }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
            .joined(separator: "; ")
    }
}
