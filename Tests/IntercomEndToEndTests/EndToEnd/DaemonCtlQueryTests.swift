import Foundation
import IntercomBase
@testable import IntercomSimulator
import IntercomTestSupport
import Testing

/// `intercom ctl` for people and for scripts (issue 23), the real binary against one daemon: on a
/// terminal (tmux) `status` is a table that lists the screen attached, `open` one sentence, `doors`
/// and `journal` tables; piped, the same commands print JSON, `doors` and `journal` the socket's
/// lists. One daemon for every subcommand: a daemon takes seconds to start.
@Suite("daemon: ctl on a terminal and piped") struct DaemonCtlQueryTests {
    @Test func humanOnATerminalJSONPiped() async throws {
        let server = SimulatedPanelHTTPServer(options: .init(user: "admin", password: "admin"))
        let httpPort = try server.start()
        defer { server.stop() }
        let daemon = try DaemonProcess(config: DaemonProcess.simulatedPanelConfig(httpPort: httpPort), name: "ctl-human")
        var tmux: Tmux?
        try await withCleanup({
            await tmux?.kill()
            _ = await daemon.stop()
        }) {
            try await daemon.waitUntilStarted()
            // A screen attaches as the TUI does; `status` lists it while the connection lasts.
            let screen = try ControlClient(path: daemon.directory.path + "/run/intercom/control.sock", timeout: .seconds(5))
            try screen.send(ControlRequest(id: .integer(1), action: .attach(screen: "tui")))
            let attached = try screen.readLine(until: ContinuousClock.now.advanced(by: .seconds(5)))
            #expect(attached?.contains(#""ok":true"#) == true, "\(attached ?? "nothing")")

            // Piped: JSON as before, and the new lists.
            let status = try await daemon.run(["ctl", "status"])
            let state = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            #expect(status.status == 0 && (state?["screens"] as? [[String: Any]])?.map { $0["name"] as? String } == ["tui"],
                    "\(status)")
            let opened = try await daemon.run(["ctl", "open"])
            let reply = try JSONSerialization.jsonObject(with: Data(opened.stdout.utf8)) as? [String: Any]
            #expect(opened.status == 0 && reply?["panel"] as? String == "entrance" && reply?["door"] as? String == "main"
                    && opened.stdout.split(separator: "\n").count == 1, "\(opened)")
            let doors = try await daemon.run(["ctl", "doors"])
            let doorList = try JSONSerialization.jsonObject(with: Data(doors.stdout.utf8)) as? [[String: Any]]
            #expect(doorList?.map { $0["id"] as? String } == ["entrance"], "\(doors)")
            let door = try await Self.pollJournal(daemon)
            #expect(door?["ok"] as? Bool == true && door?["by"] as? String == "ctl" && door?["panel"] as? String == "entrance",
                    "\(String(describing: door))")
            let queue = try await daemon.run(["ctl", "journal", "--unhandled"])
            #expect(queue.status == 0 && queue.stdout == "[]\n", "\(queue)")
            let badLimit = try await daemon.run(["ctl", "journal", "--limit", "0"])
            #expect(badLimit.status == 64 && badLimit.stderr.split(separator: "\n").count == 1, "\(badLimit)")

            // On a terminal: tables and sentences; --json keeps the JSON.
            var env: [String: String] = ["TERM": "xterm-256color"]
            for (key, value) in try IntercomBinary.environment(in: daemon.directory) { if let value { env[key] = value } }
            let ctl = "env -u INTERCOM_CONFIG '\(try IntercomBinary.path())' ctl"
            let config = "--config '\(daemon.configURL.path)'"
            let command = ["status", "open", "doors", "journal --limit 1", "status --json", "answer"]
                .map { "\(ctl) \($0) \(config); echo EXIT=$?" }.joined(separator: "; ") + "; echo ALL-DONE; sleep 30"
            let terminal = try await Tmux(command: command, width: 200, height: 100, environment: env)
            tmux = terminal
            let shown = try await terminal.waitForScreen(containing: "ALL-DONE")
            let lines = shown.split(separator: "\n").map { String($0) }
            #expect(lines.contains { $0.hasPrefix("PANEL") && $0.contains("NOW") && $0.contains("GUEST MODE") }, "\(shown)")
            #expect(lines.contains { $0.hasPrefix("entrance  idle") }, "\(shown)")
            #expect(lines.contains { $0.hasPrefix("SCREEN") } && lines.contains { $0.hasPrefix("tui ") }, "the attached screen: \(shown)")
            #expect(lines.contains("no calls") && lines.contains { $0.hasPrefix("microphone on") }, "\(shown)")
            #expect(lines.contains("door main of entrance opened (http)"), "\(shown)")
            #expect(lines.contains { $0.hasPrefix("entrance  entrance main door  panel") }, "\(shown)")
            #expect(lines.contains { $0.hasPrefix("ID") && $0.contains("OUTCOME") } && lines.contains { $0.contains("opened by http — ctl (root)") },
                    "\(shown)")
            #expect(lines.contains { $0.contains(#""screens""#) }, "--json on a terminal: \(shown)")
            // A refused command: one line on stderr, exit 1, on a terminal as in a pipe.
            #expect(lines.contains("intercom: no ringing call"), "\(shown)")
            #expect(lines.filter { $0.hasPrefix("EXIT=") } == ["EXIT=0", "EXIT=0", "EXIT=0", "EXIT=0", "EXIT=0", "EXIT=1"], "\(shown)")
            withExtendedLifetime(screen) {}
        }
    }

    /// `ctl journal` piped until the door opening is in it (the journal writes after the event): that entry.
    static func pollJournal(_ daemon: DaemonProcess) async throws -> [String: Any]? {
        var last: (status: Int32, stdout: String, stderr: String) = (0, "", "")
        var door: [String: Any]?
        try await TestPatience.eventually(within: .seconds(10), every: .milliseconds(100)) {
            last = try await daemon.run(["ctl", "journal", "--limit", "5"])
            let entries = (try? JSONSerialization.jsonObject(with: Data(last.stdout.utf8))) as? [[String: Any]]
            door = entries?.first(where: { $0["kind"] as? String == "door" })
            return door != nil
        }
        if let door { return door }
        Issue.record("ctl journal never listed the opening: \(last)")
        return nil
    }
}
