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
            try await TestPatience.eventually(within: .seconds(10)) { daemon.log.contains("syslog: listening on udp:127.0.0.1:\(port)") }
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
            try await TestPatience.eventually(within: .seconds(5)) { daemon.log.contains("ignored a syslog datagram from 127.0.0.2") }
            // A heard line after them: they were read (and ignored) before it.
            panel.send(.button(main: true))
            try await daemon.waitForEvent("door_opened") { $0.string("by") == "button" && $0.string("door") == "main" }
            #expect(daemon.events.count == before + 1, "\(daemon.events.suffix(8))")
        }
    }

    static func log(_ daemon: DaemonProcess) async throws -> [JSONValue] {
        let log = try await daemon.run(["log", "--json", "--local"])
        return log.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
    }
}
