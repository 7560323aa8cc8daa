import Foundation
import IntercomCore

/// What a command runs with: its arguments, the environment, and helpers every command shares.
struct Invocation: Sendable {
    var command: String
    var arguments: ParsedArguments
    var environment: [String: String]

    var logger: Logger {
        Logger(minimumLevel: arguments.value("--log-level").flatMap(LogLevel.init(name:)) ?? .notice,
               environment: environment)
    }

    /// Loads the config named by `--config`, `INTERCOM_CONFIG` or the XDG default; warnings go to stderr.
    func loadConfig() throws(ConfigError) -> IntercomConfig {
        let loaded = try ConfigLoader.load(explicit: arguments.value("--config"), environment: environment)
        for warning in loaded.warnings { Console.error("warning: \(warning.description)") }
        return loaded.config
    }
}

/// Output for people: one line at a time, written through at once (events are read live by scripts).
enum Console {
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The one-line error of INTERFACE.md: `intercom: what failed; what to do`.
    static func fail(_ message: String, code: Int32) -> Int32 {
        error("intercom: \(message)")
        return code
    }
}
