import Foundation

/// `intercom simulate-panel` or `intercom simulate-operator` as a test's peer, on `ManagedProcess`:
/// started with a private environment in a folder (its own, or one it shares with a daemon), ready
/// once its banner lines are out, its output kept across the run, stopped awaited.
package final class SimulatorProcess: Sendable {
    package let directory: TestDirectory
    private let peer: ManagedProcess

    private init(directory: TestDirectory, peer: ManagedProcess) {
        self.directory = directory
        self.peer = peer
    }

    /// Starts `intercom COMMAND ARGS` and returns once its stdout contains each of `ready`.
    /// `directory`: where it runs and logs (a new `prefix` folder when nil); `stdin`: a pipe for `write(line:)`.
    package static func start(_ command: String, _ arguments: [String] = [], in directory: TestDirectory? = nil,
                              prefix: String = "intercom-simulator", environment: [String: String?] = [:],
                              stdin: Bool = false, ready: [String], timeout: Duration = .seconds(30)) async throws -> SimulatorProcess {
        let directory = try directory ?? TestDirectory(prefix: prefix)
        var merged = try IntercomBinary.environment(in: directory)
        for (key, value) in environment { merged[key] = value }
        let peer = ManagedProcess(name: command)
        let simulator = SimulatorProcess(directory: directory, peer: peer)
        do {
            try await peer.start(try IntercomBinary.path(), [command] + arguments, environment: merged,
                                 workingDirectory: directory.url, logDirectory: directory.url, stdin: stdin,
                                 waitingFor: ready.map { "\"\($0)\"" }.joined(separator: " and ") + " from \(command)",
                                 timeout: timeout) { ready.allSatisfy { peer.stdout.contains($0) } }
        } catch {
            await peer.stop()
            throw error
        }
        return simulator
    }

    /// `simulate-panel ARGS`: ready when it has printed its last banner line (`sip listening on`, after
    /// the HTTP and RTSP ones), a fleet (`--count N`) when all are up. Text or JSON lines (`--events json`).
    package static func panel(_ arguments: [String] = [], in directory: TestDirectory? = nil,
                              prefix: String = "intercom-simulate-panel", environment: [String: String?] = [:],
                              stdin: Bool = false, timeout: Duration = .seconds(30)) async throws -> SimulatorProcess {
        let json = zip(arguments, arguments.dropFirst()).contains { $0 == "--events" && $1 == "json" }
        let ready = arguments.contains("--count") ? (json ? "\"event\":\"panels_ready\"" : "panels ready:")
            : (json ? "\"event\":\"sip_listening\"" : "sip listening on")
        return try await start("simulate-panel", arguments, in: directory, prefix: prefix, environment: environment,
                               stdin: stdin, ready: [ready], timeout: timeout)
    }

    /// `simulate-operator ARGS`: ready when it has named its API's URL and the test phone.
    package static func `operator`(_ arguments: [String] = [], in directory: TestDirectory? = nil,
                                   prefix: String = "intercom-simulate-operator", timeout: Duration = .seconds(30))
        async throws -> SimulatorProcess {
        try await start("simulate-operator", arguments, in: directory, prefix: prefix,
                        ready: ["operator listening on ", "test phone "], timeout: timeout)
    }

    /// The simulated operator's base URL (its `operator listening on URL` line).
    package func operatorURL() throws -> String {
        guard let url = peer.line(beginning: "operator listening on ")?.split(separator: " ").last else {
            throw HarnessError("simulate-operator printed no URL:\n\(peer.log)")
        }
        return String(url)
    }

    package var pid: pid_t? { peer.pid }
    package var isRunning: Bool { peer.isRunning }
    /// How the last run ended (nil while it runs).
    package var exitStatus: Int32? { peer.exitStatus }
    package var stdout: String { peer.stdout }
    /// stdout and stderr of every run so far.
    package var log: String { peer.log }
    package func line(beginning prefix: String) -> String? { peer.line(beginning: prefix) }
    /// SIGUSR1 rings a `--ring-on-signal` panel; SIGUSR2 logs an operator call.
    package func signal(_ sig: Int32) { peer.signal(sig) }

    @discardableResult
    package func waitForOutput(containing text: String, in stream: Subprocess.Stream = .either,
                               timeout: Duration = TestPatience.condition) async throws -> String {
        try await peer.waitForOutput(containing: text, in: stream, timeout: timeout)
    }

    /// A command on its stdin (a fleet's `ring NAME`), when started with `stdin: true`.
    package func write(line: String) throws { try peer.write(line: line) }

    /// SIGTERM (SIGKILL after `grace`), awaited.
    package func stop(grace: Duration = .seconds(3)) async { await peer.stop(grace: grace) }
}
