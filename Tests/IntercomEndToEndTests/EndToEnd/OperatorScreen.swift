import Foundation
import IntercomTestSupport
import IntercomPhoneTestSupport

/// The terminal client on its own engine in tmux, beside `intercom simulate-operator`: the
/// operator `home` configured (with `operatorLines` more in its section) and logged in with the
/// test phone; `body` gets the screen, the config and the folder. The simulator and the screen
/// are stopped before it returns.
enum OperatorScreen {
    static func run(simulator arguments: [String], prefix: String, operatorLines: String = "",
                    _ body: (Tmux, URL, TestDirectory) async throws -> Void) async throws {
        let simulator = try await SimulatorProcess.operator(arguments, prefix: prefix)
        try await withCleanup({ await simulator.stop() }) {
            let directory = try TestDirectory(prefix: prefix + "-tui")
            let config = try IntercomBinary.writeConfig(
                "[operator home]\napi = \(try simulator.operatorURL())\nphone = 79123456781\n\(operatorLines)", in: directory)
            let login = try await IntercomBinary.run(["login", "home", "--sms", "--config", config.path], in: directory, stdin: "1001")
            guard login.status == 0 else { throw HarnessError("login to the simulated operator failed: \(login)") }
            let tmux = try await screen(config: config, in: directory)
            try await withCleanup({ await tmux.kill() }) { try await body(tmux, config, directory) }
        }
    }

    /// `intercom tui --own-engine` in tmux (160x40), its exit status printed when it ends.
    private static func screen(config: URL, in directory: TestDirectory) async throws -> Tmux {
        let environment = try IntercomBinary.environment(in: directory).compactMapValues { $0 }
        let command = "\(try IntercomBinary.path()) tui --own-engine --no-notify --graphics ascii --config \(config.path)"
        return try await Tmux(command: "/bin/sh -c '\(command); echo exit=$?; sleep 30'", width: 160, height: 40,
                              environment: environment)
    }
}
