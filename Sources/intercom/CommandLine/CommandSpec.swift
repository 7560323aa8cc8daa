/// One row of the command table: what `intercom NAME` does, what it takes, and the code that runs it.
struct CommandSpec: Sendable {
    typealias Run = @Sendable (Invocation) async -> Int32

    var name: String
    var summary: String
    /// Positional arguments as shown in help, e.g. "[PANEL]".
    var arguments: String = ""
    var maxPositionals: Int = 0
    var options: [OptionSpec] = []
    var details: String = ""
    var run: Run

    /// Every command takes these (INTERFACE.md).
    static let commonOptions: [OptionSpec] = [
        .value("--config", "PATH", "config file (default: $INTERCOM_CONFIG, then $XDG_CONFIG_HOME/intercom/config.ini)"),
        .value("--log-level", "LEVEL", "debug|info|notice|warning|error (default notice)",
               choices: LogLevelName.all),
        .flag("--help", "show this help"),
    ]

    var allOptions: [OptionSpec] { options + Self.commonOptions }

    var help: String {
        var lines = ["usage: intercom \(name)\(allOptions.isEmpty ? "" : " [options]")\(arguments.isEmpty ? "" : " \(arguments)")", "", summary]
        if !details.isEmpty { lines += ["", details] }
        lines += ["", "options:"]
        let width = allOptions.map(\.usageText.count).max() ?? 0
        for option in allOptions {
            lines.append("  \(option.usageText.padding(toLength: width + 2, withPad: " ", startingAt: 0))\(option.help)")
        }
        return lines.joined(separator: "\n")
    }
}

enum LogLevelName {
    static let all = ["debug", "info", "notice", "warning", "error"]
}
