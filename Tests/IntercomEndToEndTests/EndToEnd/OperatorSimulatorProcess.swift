import Foundation
import IntercomTestSupport

/// `intercom simulate-operator` beside a daemon: started in a folder of its own (kept as long as
/// the process), its API's URL read from its banner; and the test phone's login into a daemon's config.
final class OperatorSimulatorProcess: Sendable {
    let process: Subprocess
    let directory: TestDirectory

    private init(process: Subprocess, directory: TestDirectory) {
        self.process = process
        self.directory = directory
    }

    static func launch(_ arguments: [String] = [], prefix: String) throws -> OperatorSimulatorProcess {
        let directory = try TestDirectory(prefix: prefix)
        return OperatorSimulatorProcess(
            process: try Subprocess(try IntercomBinary.path(), ["simulate-operator"] + arguments, name: "simulate-operator",
                                    environment: try IntercomBinary.environment(in: directory), logDirectory: directory.url),
            directory: directory)
    }

    var pid: pid_t { process.pid }
    func stop() async { await process.stop() }

    @discardableResult
    func waitForOutput(containing text: String, timeout: Duration = .seconds(10)) async throws -> String {
        try await process.waitForOutput(containing: text, timeout: timeout)
    }

    /// A daemon's config on loopback (unknown callers rejected) with `[operator home]` at `url`,
    /// the test phone, and `operatorLines` more in that section; `more` after it.
    static func daemonConfig(url: String, operatorLines: String = "", more: String = "") -> String {
        "[sip]\nlisten = udp:127.0.0.1:0\nunknown_callers = reject\n\n"
            + "[operator home]\napi = \(url)\nphone = 79123456781\n\(operatorLines)\n\n\(more)"
    }

    /// The base URL the simulator printed (`operator listening on URL`).
    static func url(of simulator: OperatorSimulatorProcess) async throws -> String {
        let banner = try await simulator.process.waitForOutput(containing: "test phone", in: .stdout, timeout: .seconds(20))
        guard let url = banner.split(separator: "\n").first(where: { $0.hasPrefix("operator listening on ") })?
            .split(separator: " ").last.map(String.init) else {
            throw HarnessError("simulate-operator printed no URL:\n\(banner)")
        }
        return url
    }
}

extension DaemonProcess {
    /// `intercom login NAME --sms` with the simulator's code, into this daemon's config and state.
    func loginToSimulatedOperator(_ name: String = "home") async throws -> (status: Int32, stdout: String, stderr: String) {
        try await Subprocess.run(
            "/bin/bash", ["-c", "printf '1001\\n' | \"$0\" \"$@\"", try IntercomBinary.path(), "login", name, "--sms",
                          "--config", configURL.path],
            environment: try IntercomBinary.environment(in: directory), logDirectory: directory.url, timeout: .seconds(30))
    }
}
