import Foundation
import IntercomTestSupport

/// A daemon beside `intercom simulate-operator` (`SimulatorProcess.operator`): its config and the test
/// phone's login into it.
extension DaemonProcess {
    /// A daemon's config on loopback (unknown callers rejected) with `[operator home]` at `url`,
    /// the test phone, and `operatorLines` more in that section; `more` after it.
    static func operatorConfig(url: String, operatorLines: String = "", more: String = "") -> String {
        "[sip]\nlisten = udp:127.0.0.1:0\nunknown_callers = reject\n\n"
            + "[operator home]\napi = \(url)\nphone = 79123456781\n\(operatorLines)\n\n\(more)"
    }

    /// `intercom login NAME --sms` with the simulator's code, into this daemon's config and state.
    func loginToSimulatedOperator(_ name: String = "home") async throws -> (status: Int32, stdout: String, stderr: String) {
        try await Subprocess.run(
            "/bin/bash", ["-c", "printf '1001\\n' | \"$0\" \"$@\"", try IntercomBinary.path(), "login", name, "--sms",
                          "--config", configURL.path],
            environment: try IntercomBinary.environment(in: directory), logDirectory: directory.url, timeout: .seconds(30))
    }
}
