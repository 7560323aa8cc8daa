import Foundation
import IntercomBase
import IntercomSimulator
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// Who opened the door, from the panel itself (issue 41): the simulated panel's syslog lines (a key,
/// the code, the exit button, a handset, a call to a flat) reach a running daemon's `[syslog]` socket
/// and become events and journal entries within 100 ms; the same lines from another 127.x address
/// (a stranger's) are ignored and counted in the log. The parser's table: BewardSyslogLineTests.
@Suite("daemon: the panels' syslog", .serialized, .removesTestFolders) struct DaemonPanelSyslogTests {
    @Test("a panel's syslog lines become door_opened (key, code, button, handset), panel_calling and call_answered_elsewhere within 100 ms, and journal entries; a stranger's are ignored and counted")
    func syslogLinesBecomeEventsAndStrangersAreCounted() async throws {
        let port = try FreePort.udpAndTCP()
        let daemon = try DaemonProcess(config: DaemonProcess.autoAnsweringPanelConfig(extra: """
            [syslog]
            listen = udp:127.0.0.1:\(port)
            """), name: "syslog")
        try await withCleanup({ await daemon.stop() }) {
            try await daemon.waitUntilStarted()
            try await DaemonPanelSyslogTests.logLine(daemon, "syslog: listening on udp:127.0.0.1:\(port)", within: .seconds(10))
            let panel = try SimulatedSyslog(to: "127.0.0.1", port: Int(port), from: "127.0.0.1")
            let happenings: [(SimulatedSyslog.Happening, event: String, check: (DaemonEvent) -> Bool)] = [
                (.key("00000033753EFB", flat: 12), "door_opened", { $0.string("by") == "key" && $0.string("key") == "00000033753EFB" }),
                (.code("12345", flat: 12), "door_opened", { $0.string("by") == "code" && $0.string("flat") == "12" }),
                (.button(main: false), "door_opened", { $0.string("by") == "button" && $0.string("door") == "alt" }),
                (.handset(flat: 7), "door_opened", { $0.string("by") == "handset" && $0.string("flat") == "7" }),
                (.calling(flat: 12, sip: "12@127.0.0.1:5060"), "panel_calling", { $0.string("flat") == "12" && $0.string("via") == "sip" }),
                (.handsetAnswered(flat: 12), "call_answered_elsewhere", { $0.string("flat") == "12" }),
            ]
            var latencies: [Double] = []
            var observed: [Double] = []
            for (happening, name, check) in happenings {
                let sent = Date()
                panel.send(happening)
                let event = try await daemon.waitForEvent(name, timeout: .seconds(5)) { $0.string("panel") == "entrance" && check($0) }
                observed.append(Date().timeIntervalSince(sent))
                #expect(event.string("method") == (name == "door_opened" ? "panel" : nil), "\(event)")
                if let time = event.string("time").flatMap(RFC3339.date) { latencies.append(time.timeIntervalSince(sent)) }
            }
            // The event's time is when the daemon read the datagram (milliseconds in RFC 3339).
            let slowest = latencies.max() ?? .infinity
            func ms(_ values: [Double]) -> [Int] { values.map { Int(($0 * 1000).rounded()) } }
            // Seen here adds the daemon's stdout write and this test's 20 ms poll of it.
            print("syslog line to event: stamped by the daemon \(ms(latencies)) ms, seen on its stdout \(ms(observed)) ms")
            #expect(latencies.count == happenings.count && slowest < 0.1, "latencies \(latencies)")

            let entries = try await Self.log(daemon)
            let doors = entries.filter { $0["kind"]?.stringValue == "door" && $0["method"]?.stringValue == "panel" }
            #expect(doors.compactMap { $0["by"]?.stringValue }.sorted() == ["button", "code", "handset", "key"], "\(doors)")
            #expect(doors.contains { $0["key"]?.stringValue == "00000033753EFB" && $0["flat"]?.stringValue == "12" }, "\(doors)")
            #expect(!(doors.map(\.encoded).joined().contains("12345")), "a code's digits are never journaled")
            let human = try await daemon.run(["log", "--local"])
            #expect(human.stdout.contains("opened by panel — key 00000033753EFB, flat 12"), "\(human.stdout)")
            let panelEntries = entries.compactMap { $0["event_kind"]?.stringValue }
            #expect(panelEntries.contains("panel_calling") && panelEntries.contains("call_answered_elsewhere"), "\(panelEntries)")

            // The same lines from another loopback address: nobody's panel.
            let before = daemon.events.count
            let stranger = try SimulatedSyslog(to: "127.0.0.1", port: Int(port), from: "127.0.0.2")
            for (happening, _, _) in happenings { stranger.send(happening) }
            try await DaemonPanelSyslogTests.logLine(daemon, "ignored a syslog datagram from 127.0.0.2", within: .seconds(5))
            // A heard line after them: they were read (and ignored) before it.
            panel.send(.button(main: true))
            try await daemon.waitForEvent("door_opened") { $0.string("by") == "button" && $0.string("door") == "main" }
            #expect(daemon.events.count == before + 1, "\(daemon.events.suffix(8))")
        }
    }

    @Test("the [syslog] port is taken: the daemon does not start, exit 69 and one line")
    func syslogPortTaken() async throws {
        let holder = try UDPPortHolder()
        let dir = try TestDirectory(prefix: "intercom-e2e-syslog-port")
        let config = try IntercomBinary.writeConfig(DaemonProcess.autoAnsweringPanelConfig(extra: "[syslog]\nlisten = udp:127.0.0.1:\(holder.port)"),
                                                    in: dir)
        let r = try await IntercomBinary.run(["daemon", "--events", "json", "--config", config.path], in: dir)
        #expect(r.status == 69, "stdout: \(r.stdout)\nstderr: \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("syslog") }
        #expect(lines == ["intercom: syslog: cannot listen on udp:127.0.0.1:\(holder.port): Address already in use; choose another [syslog] listen port"],
                "\(r.stderr)")
        withExtendedLifetime(holder) {}
    }

    /// Waits for the daemon's log (stderr) to say `text`; fails with its tail when it does not.
    static func logLine(_ daemon: DaemonProcess, _ text: String, within timeout: Duration) async throws {
        guard await TestPatience.eventually(within: timeout, { daemon.log.contains(text) }) else {
            throw HarnessError("the daemon never logged '\(text)'" + HarnessError.tail(daemon.log))
        }
    }

    static func log(_ daemon: DaemonProcess) async throws -> [JSONValue] {
        let log = try await daemon.run(["log", "--json", "--local"])
        return log.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
    }
}

/// `simulate-panel --syslog`, the real binaries: its call is `panel_calling`; guest mode's DTMF opening
/// is one entry (the panel's own "Opening door by DTMF command" confirms it, in the call); a key typed on
/// the simulator's stdin is `door_opened` by `key`.
@Suite("simulate-panel --syslog", .serialized, .removesTestFolders) struct SimulatorSyslogTests {
    @Test("the simulated panel's syslog: its ring is panel_calling, guest mode's DTMF opening is one door_opened, a typed key is another")
    func theSimulatorsSyslogReachesTheDaemon() async throws {
        let (sip, http, syslog) = (try FreePort.udpAndTCP(), try FreePort.udpAndTCP(), try FreePort.udpAndTCP())
        let daemon = try DaemonProcess(config: DaemonProcess.simulatedPanelConfig(httpPort: http, listen: "udp:127.0.0.1:\(sip)", entrance: """
            open = dtmf
            guest_until = 2099-01-01T00:00:00Z

            [syslog]
            listen = udp:127.0.0.1:\(syslog)
            """), extraArguments: ["--log-level", "info"], name: "sim-syslog")
        var simulator: SimulatorProcess?
        try await withCleanup({
            await simulator?.stop()
            await daemon.stop()
        }) {
            try await daemon.waitUntilStarted()
            try await DaemonPanelSyslogTests.logLine(daemon, "syslog: listening on", within: .seconds(10))
            let panel = try await SimulatorProcess.panel(["--http-port", "\(http)", "--no-rtsp", "--call", "sip:door@127.0.0.1:\(sip)",
                                                          "--syslog", "udp:127.0.0.1:\(syslog)"], in: daemon.directory, stdin: true)
            simulator = panel
            try await daemon.waitForEvent("panel_calling", timeout: .seconds(15)) { $0.string("flat") == "door" && $0.string("via") == "sip" }
            try await daemon.waitForEvent("door_opened", timeout: .seconds(15)) { $0.string("method") == "dtmf" && $0.string("by") == "guest_mode" }
            _ = try await panel.waitForOutput(containing: "door opened: main (dtmf)", timeout: .seconds(10))
            try await DaemonPanelSyslogTests.logLine(daemon, "panel entrance confirms the DTMF opening", within: .seconds(5))
            try panel.write(line: "key 0a1b2c")
            try await daemon.waitForEvent("door_opened") { $0.string("method") == "panel" && $0.string("key") == "0A1B2C" }
            let panelOpenings = daemon.events.filter { $0.name == "door_opened" && $0.string("method") == "panel" }
            #expect(panelOpenings.map { $0.string("by") } == ["key"], "the DTMF opening was reported twice: \(panelOpenings)")
        }
    }
}
