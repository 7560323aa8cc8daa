import Foundation
import IntercomBase
import IntercomCLI

/// The light `intercom`'s side of the screens: a `tui` (or plain `intercom` on a terminal) beside this
/// user's running daemon is an attached screen, which needs no engine and no phone, so it runs here
/// instead of in intercom-full, whose liblinphone tree (~200 shared libraries, bound at load) cost the
/// screen's start most of its time (BENCHMARKS.md, issue 23). Everything else still goes to intercom-full.
public enum AttachedScreenLauncher {
    /// Runs `argv` (without the program name) as an attached screen and returns its exit code, or nil
    /// when intercom-full runs it: not a screen command, `--help`, `--own-engine`, a config that does not
    /// load (intercom-full says why), or no daemon answering on the control socket.
    public static func run(_ argv: [String], environment: [String: String]) async -> Int32? {
        let command: [String]
        switch argv.first {
        case nil:
            // Plain `intercom` is the terminal client on a terminal (CommandTable's rule).
            guard isatty(0) == 1, isatty(1) == 1 else { return nil }
            command = ["tui"]
        case "tui":
            command = argv
        default:
            return nil
        }
        let spec = TUIScreenCommand.spec { _ in ExitCode.ok }
        guard let parsed = try? ParsedArguments.parse(Array(command.dropFirst()), options: spec.allOptions,
                                                      maxPositionals: spec.maxPositionals, command: spec.name),
              !parsed.has("--help"), !parsed.has("--own-engine") else { return nil }
        let invocation = Invocation(command: spec.name, arguments: parsed, environment: environment)
        guard let config = try? invocation.loadConfig(), TUIScreenCommand.attaches(invocation, config: config) else {
            return nil
        }
        return await TUIScreenCommand.runAttached(config, invocation: invocation)
    }
}
