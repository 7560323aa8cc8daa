import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// The panel's HTTP side going bad under a running daemon (the simulated panel's HTTP server in
/// this process, the daemon and a sipp panel call outside): pictures that are no JPEG, half a JPEG,
/// 500s, a panel slower than the client's timeout, a panel gone and back. The call must ring and be
/// answered regardless, the peephole skip what it cannot use, doors fail in bounded time, the
/// reachability events come once each, and nothing hangs — SIGTERM included.
@Suite("faults: the panel's HTTP side", .removesTestFolders) struct DaemonPanelFaultTests {
    static func config(_ server: SimulatedPanelHTTPServer, autoAnswer: String) -> String {
        """
        [sip]
        listen = udp:127.0.0.1:0

        [panel entrance]
        url = \(server.baseURL)
        user = admin
        password = admin
        match = sip:100001@
        auto_answer = \(autoAnswer)
        open = http
        """
    }

    /// The daemon's alarm stream is open at the panel (faults only meet requests made after they are set).
    static func waitForAlarmStream(_ server: SimulatedPanelHTTPServer, _ daemon: DaemonProcess) async throws {
        guard await TestPatience.eventually(within: .seconds(10), every: .milliseconds(50), { server.alarmStreamCount > 0 }) else {
            throw HarnessError("the daemon never opened the alarm stream\n\(daemon.log)")
        }
    }

    @Test("garbage, half and 500 pictures while it rings; a panel slower than the timeout while talking; SIGTERM mid-request")
    func badPicturesAndASlowPanel() async throws {
        let server = SimulatedPanelHTTPServer()
        try server.start()
        defer { server.stop() }
        let daemon = try DaemonProcess(config: Self.config(server, autoAnswer: "3"), name: "panel-bad")
        try await daemon.waitUntilStarted()
        try await Self.waitForAlarmStream(server, daemon)

        server.setFaults(SimulatedPanelFaults(brokenJPEG: true))
        let panel = try Sipp(scenario: BewardScenarios.panelCall(hangupAfter: .seconds(4), video: false), name: "panel",
                             remote: try daemon.hostPort(), service: "resident", timeout: .seconds(20))
        let incoming = try await daemon.waitForEvent("call_incoming")
        let call = try #require(incoming.string("call"))
        let polled = server.requestCount("images_cgi")
        try await Task.sleep(for: .milliseconds(800))
        server.setFaults(SimulatedPanelFaults(truncatedJPEG: true))
        try await Task.sleep(for: .milliseconds(800))
        server.setFaults(SimulatedPanelFaults(serverError: true))
        try await Task.sleep(for: .milliseconds(700))
        // Three kinds of useless answer: no picture reported, but the peephole kept asking.
        #expect(!daemon.names.contains("peephole_frame"), "\(daemon.events)")
        #expect(server.requestCount("images_cgi") - polled + server.requestCount("500") >= 4,
                "the peephole stopped polling: \(server.requestCount("images_cgi")) pictures, \(server.requestCount("500")) 500s")
        #expect(!daemon.names.contains("call_ended"), "the call must ring through bad pictures: \(daemon.events)")
        server.setFaults(.none)
        let frame = try await daemon.waitForEvent("peephole_frame", timeout: .seconds(5)) { $0.string("call") == call }
        #expect(frame.number("width") == 640 && frame.number("height") == 480, "\(frame)")
        let answered = try await daemon.waitForEvent("call_answered", timeout: .seconds(6)) { $0.string("call") == call }
        #expect(answered.string("by") == "auto", "\(answered)")

        // The panel now answers after 4.5 s, beyond the client's 3 s: the door fails, in bounded time.
        server.setFaults(SimulatedPanelFaults(delayMs: 4500))
        let clock = ContinuousClock()
        let asked = clock.now
        let open = try await IntercomBinary.run(["ctl", "open", "--config", daemon.configURL.path], in: daemon.directory,
                                                timeout: .seconds(10))
        let took = clock.now - asked
        let door = try await daemon.waitForEvent("door_opened", timeout: .seconds(2))
        #expect(door["ok"] as? Bool == false && door.string("error") != nil, "\(door)\n\(open)")
        #expect(open.status != 0 && took < .seconds(6), "ctl open: \(open.status) after \(took): \(open.stderr)")

        let ended = try await daemon.waitForEvent("call_ended", timeout: .seconds(10)) { $0.string("call") == call }
        #expect(ended.string("reason") == "remote_hangup", "\(ended)")
        _ = try await panel.finish(timeout: .seconds(10))

        // SIGTERM while a door request to the slow panel is in flight: no waiting it out.
        let client = try Subprocess(try IntercomBinary.path(), ["ctl", "open", "--config", daemon.configURL.path],
                                    name: "ctl-open", environment: try IntercomBinary.environment(in: daemon.directory),
                                    logDirectory: daemon.directory.url)
        try await Task.sleep(for: .milliseconds(500))
        let stopping = clock.now
        kill(daemon.process.pid, SIGTERM)
        let status = try await daemon.process.waitForExit(timeout: .seconds(6))
        #expect(status == 0 && clock.now - stopping < .seconds(5), "exit \(status) after \(clock.now - stopping)\n\(daemon.log)")
        print("slow panel: door failed after \(took) (\(door.string("error") ?? "")); SIGTERM to exit \(clock.now - stopping)")
        _ = try? await client.waitForExit(timeout: .seconds(5))
        DaemonEventChecks.expectWellFormed(daemon)
    }

    @Test("the panel goes away and comes back: unreachable once, calls ring and are answered meanwhile, reachable once")
    func panelDownAndBack() async throws {
        let server = SimulatedPanelHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        let daemon = try DaemonProcess(config: Self.config(server, autoAnswer: "on"), name: "panel-down")
        try await daemon.waitUntilStarted()
        try await Self.waitForAlarmStream(server, daemon)

        server.stop()
        let clock = ContinuousClock()
        let stopped = clock.now
        let down = try await daemon.waitForEvent("panel_unreachable", timeout: .seconds(12))
        let downAfter = clock.now - stopped
        #expect(down.string("panel") == "entrance" && !(down.string("error") ?? "").isEmpty, "\(down)")
        #expect(!(down.string("error") ?? "").contains("admin"), "credentials in an event: \(down)")

        // A call while the panel is unreachable: rings, is answered, ends; no picture, no hang.
        try await FaultChecks.expectAnswersAPanelCall(daemon, label: "while-down")
        #expect(!daemon.names.contains("peephole_frame"), "\(daemon.events)")

        try server.start(port: port)
        let restarted = clock.now
        let up = try await daemon.waitForEvent("panel_reachable", timeout: .seconds(15))
        print("panel down: panel_unreachable \(downAfter) after the server stopped; panel_reachable \(clock.now - restarted) after it restarted")
        #expect(up.string("panel") == "entrance", "\(up)")
        #expect(daemon.names.filter { $0 == "panel_unreachable" }.count == 1, "\(daemon.events)")
        #expect(daemon.names.filter { $0 == "panel_reachable" }.count == 1, "\(daemon.events)")
        DaemonEventChecks.expectWellFormed(daemon)
        #expect(await daemon.stop() == 0, "\(daemon.log)")
    }
}
