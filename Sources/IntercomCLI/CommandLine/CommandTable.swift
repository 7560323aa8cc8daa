import Foundation
import IntercomBase
import IntercomHTTP

/// The commands one binary carries, and the dispatcher over them. Its overview lists every command
/// of `CommandIndex`, whichever binary runs it.
public struct CommandTable: Sendable {
    public var commands: [CommandSpec]

    /// What asks for the version instead of a command.
    static let versionWords: Set<String> = ["--version", "-V", "version"]

    public init(commands: [CommandSpec]) {
        // A command missing from the index would have no summary and no route from the launcher.
        assert(commands.allSatisfy { CommandIndex.entry(named: $0.name) != nil }, "a command is missing from CommandIndex")
        self.commands = commands
    }

    public var overview: String {
        var lines = [
            "intercom \(IntercomVersion.string) — a terminal intercom client for Beward SIP door panels and SmartYard operators",
            "",
            "usage: intercom COMMAND [options]",
            "",
            "commands:",
        ]
        let width = CommandIndex.all.map(\.name.count).max() ?? 0
        for command in CommandIndex.all {
            lines.append("  \(command.name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\(command.summary)")
        }
        lines += [
            "",
            "Every command takes --config PATH (or INTERCOM_CONFIG) and --help. The manual: man intercom,",
            "man intercom-config (help --man, config --man print them).",
            "Exit codes: 0 ok, 64 usage, 65 bad config/data, 69 panel or SIP peer unavailable, 77 auth refused, 1 other.",
        ]
        return lines.joined(separator: "\n")
    }

    /// Runs the command line (without the program name) and returns the exit code.
    public func run(_ argv: [String], environment: [String: String]) async -> Int32 {
        guard let first = argv.first else {
            // Plain `intercom` is the terminal client; without a terminal, the overview.
            guard isatty(0) == 1, isatty(1) == 1, let tui = commands.first(where: { $0.name == "tui" }) else {
                Console.out(overview)
                return ExitCode.ok
            }
            return Self.ended(await tui.run(Invocation(command: "tui", arguments: ParsedArguments(), environment: environment)))
        }
        switch first {
        case CommandCatalog.describeCommand:
            Console.out(CommandCatalog.describe(commands))
            return ExitCode.ok
        case DynamicCompletion.command:
            return DynamicCompletion.run(Array(argv.dropFirst()), environment: environment)
        case "--help", "-h", "help":
            if argv.count == 2, let page = HelpPage(rawValue: argv[1]) {
                return generate(page)
            }
            if argv.count > 1, let command = commands.first(where: { $0.name == argv[1] }) {
                Console.out(command.help)
            } else {
                Console.out(overview)
            }
            return ExitCode.ok
        case _ where Self.versionWords.contains(first):
            Console.out("intercom \(IntercomVersion.string)")
            return ExitCode.ok
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            if let entry = CommandIndex.entry(named: first) {
                // Run as `intercom-full simulate-panel` (or the like) by hand: say which binary has it.
                return Console.fail("\(entry.program.rawValue) runs '\(first)'; run it as 'intercom \(first)'",
                                    code: ExitCode.usage)
            }
            let error = first.hasPrefix("-")
                ? UsageError(message: "unknown option '\(first)'")
                : UsageError(message: "unknown command '\(first)'")
            return Console.fail(error.description, code: ExitCode.usage)
        }
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments.parse(Array(argv.dropFirst()), options: command.allOptions,
                                               maxPositionals: command.maxPositionals, command: command.name)
        } catch {
            return Console.fail(error.description, code: ExitCode.usage)
        }
        if parsed.has("--help") {
            Console.out(command.help)
            return ExitCode.ok
        }
        return Self.ended(await command.run(Invocation(command: command.name, arguments: parsed, environment: environment,
                                                       table: commands)))
    }

    /// A command has returned and its binary exits next: the process's HTTP loop stops first, so no
    /// transfer is inside curl while exit's handlers free the C libraries' state (OpenSSL's locks: a
    /// `doctor` beside a daemon crashed so once, SIGSEGV on the HTTP thread after its report; `open`
    /// and `doors` in the light binary make the same transfers).
    private static func ended(_ code: Int32) -> Int32 {
        HTTPEventLoop.stopShared()
        return code
    }

    /// The pages `help` writes from every binary's commands: `make docs` and `make install` use them.
    enum HelpPage: String {
        case man = "--man"
        case reference = "--reference"
    }

    private func generate(_ page: HelpPage) -> Int32 {
        let described: [CommandDescription]
        do {
            described = try CommandCatalog.gather(own: commands)
        } catch {
            return Console.fail(error.description, code: ExitCode.failure)
        }
        switch page {
        case .man: Console.out(ManualPage.roff(described))
        case .reference: Console.out(CommandReference.markdown(described))
        }
        return ExitCode.ok
    }
}
