import Foundation
import IntercomBase

/// Screens for the attach bench: real `intercom tui` processes in panes of one tmux server, and
/// protocol screens in this process (a control connection that attaches and counts the frames
/// of its picture subscription, as `RemoteLink` receives them).
final class BenchPanes: @unchecked Sendable {
    private let socket = "intercom-attach-bench-\(getpid())"
    private var windows = 0

    func tmux(_ arguments: [String]) throws -> String {
        try Spawn.run("/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + arguments)
    }

    /// Opens a pane running `command` (120×40); its target.
    func open(_ command: String) throws -> String {
        if windows == 0 {
            // A window that outlives the screens' (the session ends with its last window). The tmux
            // server forks from this first client and would hold a stdout pipe open forever.
            try Spawn.run("/usr/bin/tmux", ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "b", "-n", "hold",
                                            "-x", "120", "-y", "40", "sleep 86400"], capture: false)
        }
        windows += 1
        let name = "w\(windows)"
        _ = try tmux(["new-window", "-d", "-t", "b", "-n", name, command])
        return "b:\(name)"
    }

    func screen(_ target: String) -> String { (try? tmux(["capture-pane", "-p", "-t", target])) ?? "" }

    /// Polls the pane as fast as tmux answers until it shows every one of `texts`; when it did.
    func wait(_ target: String, for texts: [String], timeout: Double = 10) async -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let shown = screen(target)
            if texts.allSatisfy(shown.contains) { return Date() }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return nil
    }

    func pid(_ target: String) -> Int32? {
        Int32((try? tmux(["display", "-p", "-t", target, "#{pane_pid}"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }

    /// Ends the pane's program (SIGTERM: the TUI ignores SIGHUP) and the pane.
    func close(_ target: String) {
        if let pid = pid(target) { kill(pid, SIGCONT); kill(pid, SIGTERM) }
        _ = try? tmux(["kill-window", "-t", target])
    }

    func stop() { _ = try? tmux(["kill-server"]) }
}

/// One attached protocol screen: attaches, subscribes to a panel's picture, and counts frames on a thread.
final class ProtocolScreen: @unchecked Sendable {
    private let client: ControlClient
    private let lock = NSLock()
    private var frames: [Date] = []

    init(path: String, panel: String, width: Int = 640, height: Int = 360, fps: Double = 12) throws {
        client = try ControlClient(path: path, timeout: .seconds(5))
        try client.send(ControlRequest(action: .attach(screen: "bench")))
        try client.send(ControlRequest(action: .picture(PictureRequest(source: .panel(panel), width: width, height: height, fps: fps))))
        let reader = Thread { [self] in
            while let line = client.readLine() {
                if line.hasPrefix("{\"frame\":") { lock.withLock { frames.append(Date()) } }
            }
        }
        reader.start()
    }

    /// Frames a second over the last `seconds`.
    func rate(over seconds: Double) -> Double {
        let since = Date().addingTimeInterval(-seconds)
        return Double(lock.withLock { frames.filter { $0 >= since }.count }) / seconds
    }

    func detach() { client.finishSending() }
}
