import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport

/// The real binary in a terminal that answers none of its queries (issue 4: "nothing hangs in
/// a terminal that answers no queries"). The pty is the process's controlling terminal, so the
/// probe really opens it, writes its queries and waits; the test plays a terminal that only
/// shows what it is sent.
@Suite("watch in a terminal that answers nothing", .serialized)
struct SilentTerminalTests {
    @Test func watchDrawsAndQuitsWithoutAnyAnswer() throws {
        let server = SimulatedPanelHTTPServer()
        _ = try server.start()
        defer { server.stop() }
        let dir = try TestDirectory(prefix: "intercom-silent")
        let config = try dir.write("[panel p]\nurl = \(server.baseURL)\nuser = admin\npassword = admin\n", to: "config.ini")
        chmod(config.path, 0o600)
        let pty = try FakeTTY()
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(pty.slave, UInt(TIOCSWINSZ), &size)

        // setsid -c: a new session whose controlling terminal is the pty on stdin.
        let pid = try Self.spawn(["setsid", "-c", "-w", try IntercomBinary.path(), "watch", "--config", config.path, "p"],
                                 tty: pty.slave, environment: ["TERM": "xterm-256color", "HOME": dir.path])
        var reaped = false
        defer { if !reaped { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) } }

        let clock = ContinuousClock()
        let started = clock.now
        var screen: [UInt8] = []
        // The first picture and the status line come after the probe has given up (150 ms).
        // No stream here (rtsp://127.0.0.1:554 refuses): snapshots at 2 a second.
        // At 80 columns the stream's failure note ("rtsp://…: connection refused; fix [panel p] rtsp") takes
        // the status line and the counters give way, so the picture itself (half blocks) is what shows it came.
        let drawnLine = " p · "
        func pictured(_ text: String) -> Bool { text.contains(drawnLine) && text.contains("▀") }
        while clock.now - started < .seconds(10), !pictured(Self.text(screen)) {
            screen += pty.readAvailable()
        }
        let drawn = clock.now - started
        #expect(Self.text(screen).contains("\u{1B}[5n"), "the probe's queries were sent")
        #expect(pictured(Self.text(screen)), "no picture: \(Self.text(screen).suffix(300))")
        #expect(drawn < .seconds(5), "first picture after \(drawn)")

        _ = "q".withCString { write(pty.master, $0, 1) }
        var status: Int32 = 0
        let asked = clock.now
        while clock.now - asked < .seconds(5) {
            screen += pty.readAvailable()
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true; break }
        }
        #expect(reaped, "watch did not quit on q")
        #expect(status == 0)
        // The alternate screen is left and the cursor shown again.
        #expect(Self.text(screen).contains("\u{1B}[?25h\u{1B}[?1049l"))
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// posix_spawnp with the pty on stdin, stdout and stderr.
    static func spawn(_ arguments: [String], tty: Int32, environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_adddup2(&actions, tty, fd) }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        env["TMUX"] = nil
        env["STY"] = nil
        env["INTERCOM_CONFIG"] = nil
        for (key, value) in environment { env[key] = value }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard rc == 0 else { throw HarnessError("cannot start \(arguments[0]): \(String(cString: strerror(rc)))") }
        return pid
    }
}
