import Foundation
@testable import IntercomSimulator
import Testing
@testable import IntercomPanel
import IntercomTestSupport

/// Firmware without `alarmchangestate_cgi` answers 200 and "… is not defined", then closes
/// (docs/BEWARD.md): said once, asked rarely, never a connect; doors unaffected.
@Suite struct PanelNoAlarmStreamTests {
    private static let missing = PanelError.noAlarmStream(panel: "p", said: "answered \"alarmchangestate_cgi is not defined\"")

    private static func noStreamReports(_ events: [AlarmStream.Event]) -> Int {
        events.filter { if case .noAlarmStream = $0 { true } else { false } }.count
    }

    /// The default policy on a manual clock: 30 s of a panel that has no stream.
    @Test func policyAsksAPanelWithoutTheStreamAtMostFiveTimesIn30Seconds() {
        var policy = AlarmReconnectPolicy(options: .init())
        var now: Duration = .zero
        var requests = 0
        var events: [AlarmStream.Event] = []
        while now < .seconds(30) {
            requests += 1
            let (said, delay) = policy.ended(.noStream(Self.missing))
            events += said
            now += delay
        }
        #expect(requests <= 5, "asked \(requests) times in 30 s")
        #expect(events == [.noAlarmStream(Self.missing)])
        #expect(!events.contains(.connected))
    }

    /// A panel down, then up without the stream: "reachable" once, "no stream" once; a later
    /// firmware with the stream is a connect again, and losing it again is said again.
    @Test func policySaysEachChangeOnce() {
        var policy = AlarmReconnectPolicy(options: .init(failuresBeforeUnreachable: 2))
        let down = PanelError.unreachable("gone")
        #expect(policy.ended(.failed(down)).events == [])
        #expect(policy.ended(.failed(down)).events == [.unreachable(down)])
        #expect(policy.ended(.noStream(Self.missing)).events == [.reachable, .noAlarmStream(Self.missing)])
        #expect(policy.ended(.noStream(Self.missing)).events == [])
        #expect(policy.confirmed() == [.connected])
        #expect(policy.ended(.streamed).delay == .seconds(1))
        #expect(policy.ended(.noStream(Self.missing)).events == [.noAlarmStream(Self.missing)])
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

    /// No keep-alives: a stream silent for longer than the simulator used to pad is kept and
    /// still delivers the next line, without a reconnect.
    @Test func aQuietStreamIsKept() async throws {
        let f = try PanelFixture()
        defer { f.server.stop() }
        let stream = f.panel.alarmStream(options: .init(confirmAfter: .milliseconds(200)))
        let events = PanelEventRecorder(stream.events)
        defer { stream.cancel() }
        #expect(await events.wait { $0.contains(.connected) })
        _ = await events.wait(timeout: .milliseconds(1500)) { _ in false }
        f.server.emitAlarm(.ding, active: true)
        #expect(await events.wait { $0.contains { if case .alarm(let a) = $0 { a.kind == .ding } else { false } } })
        #expect(events.all.filter { $0 == .connected }.count == 1)
        #expect(f.server.requestCount("alarmchangestate_cgi") == 1)
    }
}
