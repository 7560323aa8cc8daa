import Foundation
import IntercomCore
import IntercomSimulator

/// The terminal client in a tmux pane (release build), rung by a simulated panel in this
/// process: key → call established, key → open request at the panel, and the client's CPU.
enum TUIBench {
    struct Result {
        var keyToAnswer = Samples()
        var keyToDoor = Samples()
        /// From sending the INVITE to the peephole picture on the tmux screen.
        var inviteToPicture = Samples()
        var idleCPU: Double = .nan
        var ringingCPU: Double = .nan
        var note = ""
    }

    static func run(intercom: String, work: String, calls: Int) async throws -> Result {
        var result = Result()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            result.note = "tmux is not installed"
            return result
        }
        let home = "\(work)/tui-home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(dataDirectory: "\(work)/tui-panel"))
        defer { Task { await panel.stop() } }
        let port = try freeUDPPort()
        let config = "\(home)/config.ini"
        try (BenchConfig.sip(port: port, "ring_timeout = 600")
             + BenchConfig.panel("porch", url: panel.http.baseURL, "match = sip:100001@", "open = http"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        let socket = "intercom-bench-\(getpid())"
        let tmux = { (args: [String]) -> String in try Spawn.run("/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + args) }
        // The tmux server forks from this first client and would hold a stdout pipe open forever.
        try Spawn.run("/usr/bin/tmux", ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "b", "-x", "120", "-y", "40",
                      "exec env HOME=\(home) TERM=tmux-256color \(intercom) tui --config \(config) --no-bell --no-notify --no-ring"],
                     capture: false)
        defer { _ = try? tmux(["kill-server"]) }
        func screen() -> String { (try? tmux(["capture-pane", "-p", "-t", "b"])) ?? "" }
        func waitScreen(_ text: String, timeout: Double = 10) async -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if screen().contains(text) { return true }
                try? await Task.sleep(nanoseconds: 2_000_000)
            }
            return false
        }
        guard await waitScreen("waiting for calls"), let pid = Int32(try tmux(["display", "-p", "-t", "b", "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)) else {
            result.note = "the TUI did not start"
            return result
        }
        // kill-server alone was seen to leave the TUI and its tmux server running after the bench
        // (and the TUI ignores SIGHUP: it ends through its terminal's hang-up instead).
        defer { kill(pid, SIGTERM) }
        try? await Task.sleep(nanoseconds: 2_000_000_000)
        result.idleCPU = await ProcStat.cpuPercent(pid: pid, window: 10)

        let uri = "sip:intercom@127.0.0.1:\(port)"
        let events = EventLog(panel.events)
        for round in 0..<calls {
            let mark = events.count
            let clean = !screen().contains("▀")
            let invited = Date()
            _ = try await panel.ring(uri)
            if clean, await waitScreen("▀") { result.inviteToPicture.add(Date().timeIntervalSince(invited) * 1000) }
            guard await waitScreen("IS CALLING") else { continue }
            if round == 0 {
                // The peephole runs at 3 fps while it rings: the client's CPU drawing it.
                result.ringingCPU = await ProcStat.cpuPercent(pid: pid, window: 10)
            }
            let pressed = Date()
            _ = try tmux(["send-keys", "-t", "b", "a"])
            guard let answered = await events.first(after: mark, { if case .answered = $0 { true } else { false } }) else { continue }
            result.keyToAnswer.add(answered.timeIntervalSince(pressed) * 1000)
            _ = await waitScreen("In call with porch")
            let opened = Date()
            _ = try tmux(["send-keys", "-t", "b", "o"])
            if let door = await events.first(after: mark, { if case .doorOpened = $0 { true } else { false } }) {
                result.keyToDoor.add(door.timeIntervalSince(opened) * 1000)
            }
            _ = try tmux(["send-keys", "-t", "b", "h"])
            _ = await events.first(after: mark, { if case .ended = $0 { true } else { false } })
            _ = await waitScreen("waiting for calls")
        }
        return result
    }

    static func freeUDPPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

/// The simulated panel's events with the time each arrived.
final class EventLog: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var entries: [(Date, SimulatedPanelEvent)] = []
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<SimulatedPanelEvent>) {
        task = Task { [weak self] in
            for await event in stream { self?.lock.withLock { self?.entries.append((Date(), event)) } }
        }
    }

    var count: Int { lock.withLock { entries.count } }

    /// When the first event after index `mark` matching `match` arrived; waits up to 10 s.
    func first(after mark: Int, _ match: (SimulatedPanelEvent) -> Bool) async -> Date? {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let found = lock.withLock { entries.dropFirst(mark).first { match($0.1) }?.0 }
            if let found { return found }
            try? await Task.sleep(nanoseconds: 500_000)
        }
        return nil
    }
}
