import Foundation
@testable import IntercomSimulator
import Testing
import IntercomPanel
import IntercomTestSupport

/// Panels send no keep-alives (docs/BEWARD.md): a silent stream is kept, and checked through the
/// panel's other connection instead.
@Suite struct PanelSilentStreamTests {
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

    /// A panel that reboots leaves our stream open and silent for ever; its `UpTime` going back
    /// (read on the main connection once the stream has been silent) reopens it.
    @Test func aRebootIsNoticedThroughTheUptime() async throws {
        let f = try PanelFixture()
        defer { f.server.stop() }
        let stream = f.panel.alarmStream(options: .init(
            initialBackoff: .milliseconds(100), confirmAfter: .milliseconds(200), silenceCheck: .milliseconds(300)))
        let events = PanelEventRecorder(stream.events)
        defer { stream.cancel() }
        #expect(await events.wait { $0.contains(.connected) })
        // The uptime it compares with is read once the stream is connected, then again at each silent check.
        // A request is counted when it arrives, before its answer is written: a reboot right after the first
        // count could put the new uptime into that first answer, and nothing would then go back. The second
        // request comes only after the first answer was taken, so the reboot lands after a kept uptime.
        #expect(await events.wait { _ in f.server.requestCount("systeminfo_cgi") >= 2 })
        f.server.reboot()
        #expect(f.server.alarmStreamCount == 0)
        #expect(await events.wait { $0.filter { $0 == .connected }.count == 2 })
        #expect(await events.wait { _ in f.server.alarmStreamCount == 1 })
        f.server.emitAlarm(.ding, active: true)
        #expect(await events.wait { $0.contains { if case .alarm(let a) = $0 { a.kind == .ding } else { false } } })
        #expect(!events.all.contains { if case .unreachable = $0 { true } else { false } })
    }
}
