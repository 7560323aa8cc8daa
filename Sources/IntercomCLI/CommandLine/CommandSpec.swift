/// One row of the command table: what `intercom NAME` does, what it takes, and the code that runs it.
public struct CommandSpec: Sendable {
    public typealias Run = @Sendable (Invocation) async -> Int32

    public var name: String
    /// Positional arguments as shown in help, e.g. "[PANEL]".
    public var arguments: String = ""
    public var maxPositionals: Int = 0
    public var options: [OptionSpec] = []
    public var details: String = ""
    /// The words the first argument takes, when it names an action (`ctl`); `arguments` is then
    /// made from them.
    public var actions: [CommandAction] = []
    public var run: Run

    public init(name: String, arguments: String = "", maxPositionals: Int = 0,
                options: [OptionSpec] = [], details: String = "", actions: [CommandAction] = [],
                run: @escaping Run) {
        self.name = name
        self.arguments = actions.isEmpty ? arguments : actions.map(\.usageText).joined(separator: "|")
        self.actions = actions
        self.maxPositionals = maxPositionals
        self.options = options
        self.details = details
        self.run = run
    }

    /// The line help shows for it, from `CommandIndex` (empty for a command missing there, which a
    /// test of every binary's table catches).
    public var summary: String { CommandIndex.entry(named: name)?.summary ?? "" }

    /// Every command takes these.
    public static let commonOptions: [OptionSpec] = [
        .value("--config", "PATH", "config file (default: $INTERCOM_CONFIG, then $XDG_CONFIG_HOME/intercom/config.ini)"),
        .value("--log-level", "LEVEL", "debug|info|notice|warning|error (default notice)",
               choices: LogLevelName.all),
        .flag("--help", "show this help"),
    ]

    public var allOptions: [OptionSpec] { options + Self.commonOptions }

    public var help: String {
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

public enum LogLevelName {
    public static let all = ["debug", "info", "notice", "warning", "error"]
}
