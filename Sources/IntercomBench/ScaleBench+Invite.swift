import Foundation
import IntercomSimulator
import IntercomTestSupport

/// INVITE → the ringing panel's picture on the call screen while many other panels sit idle
/// (their alarm streams open on the same HTTP loop): the simulated panel rings `intercom tui`
/// in a tmux pane, beside `idle` stub panels; the picture counts once half blocks (`▀`) show.
extension ScaleBench {
    static func inviteToPicture(intercom: String, work: String, idle: Int, calls: Int) async throws -> Samples {
        var samples = Samples()
        let stub = try LoopbackHTTPStub(servers: idle)
        defer { stub.stop() }
        let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(dataDirectory: "\(work)/scale-ring-panel"))
        let home = "\(work)/scale-ring"
        let port = try TUIBench.freeUDPPort()
        let idlePanels = (0..<idle).map { BenchConfig.panel("idle\($0)", url: stub.baseURL($0), "rtsp = off") }
        let config = try VideoBench.writeConfig(
            ([BenchConfig.sip(port: port, "ring_timeout = 600"),
              BenchConfig.panel("porch", url: panel.http.baseURL, "match = sip:100001@", "rtsp = off")] + idlePanels)
                .joined(separator: "\n"), home: home)
        let pane = try VideoBench.pane("\(intercom) tui --config \(config) --graphics symbols --no-bell --no-notify --no-ring",
                                       cols: 120, rows: 40, home: home)
        defer { pane.kill() }
        guard await pane.wait(for: "waiting for calls", timeout: 20) != nil else {
            await panel.stop()
            throw BenchError("the TUI with \(idle) idle panels did not start")
        }
        // Every idle panel's alarm stream is open before the first ring.
        let deadline = Date().addingTimeInterval(20)
        while stub.openStreams < idle, Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
        try? await Task.sleep(nanoseconds: 1_000_000_000)
        let uri = "sip:intercom@127.0.0.1:\(port)"
        for _ in 0..<calls {
            let clean = !pane.screen().contains("▀")
            let invited = Date()
            _ = try await panel.ring(uri)
            if clean, let drawn = await pane.wait(for: "▀", timeout: 10) {
                samples.add(drawn.timeIntervalSince(invited) * 1000)
            }
            await panel.hangup()
            _ = await pane.wait(for: "waiting for calls", timeout: 10)
            try? await Task.sleep(nanoseconds: 300_000_000)
        }
        await panel.stop()
        return samples
    }
}
