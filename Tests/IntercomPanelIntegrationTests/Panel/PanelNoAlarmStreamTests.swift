import Foundation
@testable import IntercomSimulator
import Testing
import IntercomPanel
import IntercomTestSupport

/// Firmware without `alarmchangestate_cgi` answers 200 and "… is not defined", then closes
/// (docs/BEWARD.md): said once, asked rarely, never a connect; doors unaffected.
@Suite struct PanelNoAlarmStreamTests {
    private static func noStreamReports(_ events: [AlarmStream.Event]) -> Int {
        events.filter { if case .noAlarmStream = $0 { true } else { false } }.count
    }

    /// Over real HTTP, scaled down (longest back-off 1 s): 3 s bring at most 4 requests, one
    /// report, no connect, and the door still opens.
    @Test func simulatedPanelWithoutTheStreamIsAskedRarelyAndSaidOnce() async throws {
        let f = try PanelFixture(.init(alarmStream: false))
        defer { f.server.stop() }
        let stream = f.panel.alarmStream(options: .init(
            initialBackoff: .milliseconds(100), maxBackoff: .seconds(1), failuresBeforeUnreachable: 3,
            idleTimeout: .seconds(10), confirmAfter: .milliseconds(500)))
        let events = PanelEventRecorder(stream.events)
        defer { stream.cancel() }

        #expect(await events.wait { Self.noStreamReports($0) == 1 })
        let start = ContinuousClock.now
        try await f.panel.open(door: .main)
        #expect(f.server.requestCount("intercom_cgi?action=maindoor") == 1)
        _ = await events.wait(timeout: .seconds(3)) { _ in ContinuousClock.now - start >= .seconds(3) }
        let asked = f.server.requestCount("alarmchangestate_cgi")
        #expect(asked <= 4, "asked \(asked) times in about 3 s")
        #expect(Self.noStreamReports(events.all) == 1)
        #expect(!events.all.contains(.connected))
        guard case .noAlarmStream(.noAlarmStream(_, let said)) = events.all.first(where: { Self.noStreamReports([$0]) == 1 }) else {
            Issue.record("no report")
            return
        }
        #expect(said.contains("alarmchangestate_cgi is not defined"))
    }
}
