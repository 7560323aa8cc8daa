import IntercomCLI
import IntercomCore
import IntercomBase

/// `intercom config --example` prints a commented config; `intercom config --check` validates one;
/// `--reference` prints docs/CONFIG.md and `--man` intercom-config(5) (all come from the config table).
enum ConfigCommand {
    static let spec = CommandSpec(
        name: "config",
        options: [
            .flag("--example", "print a commented example config"),
            .flag("--check", "load the config and report errors and warnings (a hook program that is missing or not executable is an error)"),
            .flag("--reference", "print the reference of every section and key (Markdown, docs/CONFIG.md)"),
            .flag("--man", "print the intercom-config(5) man page (roff) made from the same table"),
        ],
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        if invocation.arguments.has("--example") {
            Console.out(ConfigExample.text)
            return ExitCode.ok
        }
        if invocation.arguments.has("--reference") {
            Console.out(ConfigReference.markdown)
            return ExitCode.ok
        }
        if invocation.arguments.has("--man") {
            Console.out(ConfigManual.roff)
            return ExitCode.ok
        }
        guard invocation.arguments.has("--check") else {
            return Console.fail(UsageError(message: "say --example, --check, --reference or --man", command: "config").description,
                                code: ExitCode.usage)
        }
        do {
            let config = try invocation.loadConfig()
            // A hook that cannot run loads fine but fails at its event: not "ok".
            let hooks = HookProgramCheck.problems(config.hooks)
            guard hooks.isEmpty else {
                for line in hooks { Console.error("intercom: \(config.path ?? "config"): \(line)") }
                return ExitCode.dataError
            }
            Console.out("config ok: \(config.path ?? "(no file; defaults)"), \(config.panels.count) panel(s)")
            return ExitCode.ok
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
    }
}
