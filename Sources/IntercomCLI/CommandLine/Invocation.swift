import Foundation
import IntercomBase

/// What a command runs with: its arguments, the environment, and helpers every command shares.
public struct Invocation: Sendable {
    public var command: String
    public var arguments: ParsedArguments
    public var environment: [String: String]
    /// The commands of the binary that runs this one (what `completion` describes itself).
    public var table: [CommandSpec]

    public init(command: String, arguments: ParsedArguments, environment: [String: String], table: [CommandSpec] = []) {
        self.command = command
        self.arguments = arguments
        self.environment = environment
        self.table = table
    }

    public var logger: Logger {
        Logger(minimumLevel: arguments.value("--log-level").flatMap(LogLevel.init(name:)) ?? .notice,
               environment: environment)
    }

    /// Loads the config named by `--config`, `INTERCOM_CONFIG` or the XDG default; warnings go to stderr.
    public func loadConfig() throws(ConfigError) -> IntercomConfig {
        let loaded = try ConfigLoader.load(explicit: arguments.value("--config"), environment: environment)
        for warning in loaded.warnings { Console.error("warning: \(warning.description)") }
        return loaded.config
    }
}
