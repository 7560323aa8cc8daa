import Foundation
@testable import IntercomSimulator
import Testing
import IntercomPanel
import IntercomImaging
import IntercomHTTP
import IntercomTestSupport

@Suite struct PanelAlarmStreamTests {
    private let fast = AlarmStream.Options(
        initialBackoff: .milliseconds(100), maxBackoff: .milliseconds(400),
        failuresBeforeUnreachable: 3, idleTimeout: .seconds(10), confirmAfter: .milliseconds(200))

    private static func alarms(_ events: [AlarmStream.Event]) -> [PanelAlarm] {
        events.compactMap { if case .alarm(let a) = $0 { a } else { nil } }
    }

    private static func connects(_ events: [AlarmStream.Event]) -> Int {
        events.filter { $0 == .connected }.count
    }

    @Test func linesArriveAsAlarms() async throws {
        let f = try PanelFixture(.init(relayMs: 200, dksRelayAlarm: true))
        defer { f.server.stop() }
        let stream = f.panel.alarmStream(options: fast)
        let events = PanelEventRecorder(stream.events)
        defer { stream.cancel() }

        #expect(await events.wait { Self.connects($0) == 1 })
        #expect(await events.wait { _ in f.server.alarmStreamCount == 1 })
        f.server.emitAlarm(.motion, active: true)
        f.server.ding(releaseAfter: .milliseconds(100))
        // A door opened over the main connection shows up as SensorOutAlarm on the stream,
        // while the stream stays open.
        try await f.panel.open(door: .main)
        #expect(await events.wait { Self.alarms($0).count >= 5 })
        let seen = Self.alarms(events.all).map { "\($0.kind.rawValue)=\($0.active)" }
        #expect(seen.prefix(2) == ["motion=true", "ding=true"])
        #expect(Set(seen) == ["motion=true", "ding=true", "ding=false", "door=true", "door=false"])
    }

    @Test func reconnectsAfterTheServerComesBack() async throws {
        let server = SimulatedPanelHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        let panel = try BewardPanel(name: "flaky", baseURL: server.baseURL, user: "admin", password: "admin")
        let stream = panel.alarmStream(options: fast)
        let events = PanelEventRecorder(stream.events)
        defer { stream.cancel() }

        #expect(await events.wait { Self.connects($0) == 1 })
        server.stop()
        // 100 + 200 + 400 ms of backoff: three failed connects, then one report.
        #expect(await events.wait { $0.contains { if case .unreachable = $0 { true } else { false } } })
        try server.start(port: port)
        #expect(await events.wait { Self.connects($0) == 2 })
        #expect(events.all.contains(.reachable))
        #expect(await events.wait { _ in server.alarmStreamCount == 1 })
        server.emitAlarm(.ding, active: true)
        #expect(await events.wait { Self.alarms($0).contains { $0.kind == .ding && $0.active } })
        let unreachableReports = events.all.filter { if case .unreachable = $0 { true } else { false } }
        #expect(unreachableReports.count == 1)
    }

    @Test func wrongPasswordReportsAuthRefused() async throws {
        let f = try PanelFixture(password: "nope")
        defer { f.server.stop() }
        let stream = f.panel.alarmStream(options: fast)
        let events = PanelEventRecorder(stream.events)
        defer { stream.cancel() }
        #expect(await events.wait { $0.contains(.unreachable(.authRefused(panel: "test"))) })
        #expect(Self.connects(events.all) == 0)
    }
}
