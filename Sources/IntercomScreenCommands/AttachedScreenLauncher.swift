import Foundation
import IntercomAttach
import IntercomBase
import IntercomCLI

/// The light `intercom`'s side of the screens: a `tui` (or plain `intercom` on a terminal) or a `watch`
/// beside this user's running daemon is an attached screen, which needs no engine and no phone, so it
/// runs here instead of in intercom-full, whose liblinphone tree (~200 shared libraries, bound at load)
/// cost the screen's start most of its time (BENCHMARKS.md, issue 23). Everything else still goes to
/// intercom-full.
public enum AttachedScreenLauncher {
    /// Runs `argv` (without the program name) as an attached screen and returns its exit code, or nil
    /// when intercom-full runs it: not a screen command, `--help`, `--own-engine`, a line that does not
    /// parse or a config that does not load (intercom-full says why), or no daemon answering on the
    /// control socket.
    public static func run(_ argv: [String], environment: [String: String]) async -> Int32? {
        switch argv.first {
        case nil:
            // Plain `intercom` is the terminal client on a terminal (CommandTable's rule).
            guard isatty(0) == 1, isatty(1) == 1 else { return nil }
            return await tui(["tui"], environment: environment)
        case "tui":
            return await tui(argv, environment: environment)
        case "watch":
            guard let (invocation, config) = attached(argv, spec: WatchScreenCommand.spec { _ in ExitCode.ok },
                                                      environment: environment) else { return nil }
            // With the daemon answering, what intercom-full would say of a bad line is said here.
            switch WatchScreenCommand.target(invocation) {
            case .success(let target): return await WatchScreenCommand.runAttached(config, invocation: invocation, target: target)
            case .failure(let failure): return failure.report()
            }
        default:
            return nil
        }
    }

    private static func tui(_ command: [String], environment: [String: String]) async -> Int32? {
        guard let (invocation, config) = attached(command, spec: TUIScreenCommand.spec { _ in ExitCode.ok },
                                                  environment: environment) else { return nil }
        return await TUIScreenCommand.runAttached(config, invocation: invocation)
    }

    /// The invocation of `command` by `spec` and its config when the screen attaches: the line parses,
    /// no `--help` or `--own-engine`, the config loads and this user's daemon answers on its socket serving it.
    private static func attached(_ command: [String], spec: CommandSpec,
                                 environment: [String: String]) -> (Invocation, IntercomConfig)? {
        guard let parsed = try? ParsedArguments.parse(Array(command.dropFirst()), options: spec.allOptions,
                                                      maxPositionals: spec.maxPositionals, command: spec.name),
              !parsed.has("--help"), !parsed.has("--own-engine") else { return nil }
        let invocation = Invocation(command: spec.name, arguments: parsed, environment: environment)
        // A daemon of another config: intercom-full runs the screen with an engine of its own (and says so).
        guard let config = try? invocation.loadConfig(),
              ScreenAttach.attaches(invocation, config: config, logger: nil) else { return nil }
        return (invocation, config)
    }
}
