import Foundation
import IntercomAttach
import IntercomBase
import IntercomCLI
import IntercomTUI

/// `intercom` / `intercom tui [--kiosk]`: the command line both binaries read, and the screen attached
/// to this user's daemon. The light `intercom` runs the attached screen itself (no engine, no phone: its
/// start loads a few dozen libraries instead of liblinphone's ~200); intercom-full runs the screen with an
/// engine of its own (`run(ownEngine:)` is its).
public enum TUIScreenCommand {
    /// The screen's options, which `call` and `demo` (intercom-full's) take too.
    public static let options: [OptionSpec] = [
        .value("--graphics", "MODE", "auto (default), kitty, sixel, iterm, symbols or ascii",
               choices: ["auto", "kitty", "sixel", "iterm", "symbols", "ascii"]),
        .flag("--no-bell", "no terminal bell while a panel rings"),
        .flag("--no-notify", "no desktop or terminal notification when a panel rings ([notify] off)"),
        .flag("--no-ring", "no ringtone through the sound card ([audio] ringtone)"),
    ]

    /// `tui`'s options and help; `run` is what the binary does with them.
    public static func spec(run: @escaping CommandSpec.Run) -> CommandSpec {
        CommandSpec(
            name: "tui",
            options: options + [.flag("--kiosk", "concierge desk: every panel's live picture on one screen (PgUp/PgDn pages, / filters by name, v lists); quitting needs Q then y"),
                                .flag("--own-engine", "run an engine of its own even when this user's daemon runs (the screen attaches to it otherwise)")],
            details: "Keys are shown at the bottom of the screen; ? lists them all. With this user's daemon running "
                + "this config, the screen attaches to it: its calls, doors and pictures, with sound on the daemon's devices. "
                + "When the daemon goes away the screen says so and attaches again by itself once it is back. "
                + "Beside a daemon of another config the screen runs an engine of its own.",
            run: run)
    }

    /// Whether this screen attaches: no `--own-engine`, and this user's daemon answers on its socket serving
    /// this config (a daemon of another config leaves it an engine of its own: `ScreenPlacement`).
    public static func attaches(_ invocation: Invocation, config: IntercomConfig) -> Bool {
        ScreenAttach.attaches(invocation, config: config, logger: invocation.logger)
    }

    /// The screen attached to this user's daemon: no engine here, so quitting (or being killed)
    /// ends no call; sound stays on the daemon's devices.
    public static func runAttached(_ config: IntercomConfig, invocation: Invocation) async -> Int32 {
        let kiosk = invocation.arguments.has("--kiosk")
        guard isatty(0) == 1, isatty(1) == 1 else {
            return Console.fail(TUIError.notATerminal.description, code: ExitCode.usage)
        }
        let link: RemoteLink
        do {
            link = try RemoteLink(path: config.daemon.socketPath, screen: kiosk ? "kiosk" : "tui", config: .file(config.path))
        } catch {
            return Console.fail("cannot attach to this user's intercom daemon: \(error.description); "
                + "'intercom tui --own-engine' runs a screen with its own engine", code: error.exitCode)
        }
        defer { link.detach() }
        let stderrLog = StderrRedirect(toLogIn: invocation.environment, logger: invocation.logger)
        defer { stderrLog.restore() }
        let capabilities = TerminalCapabilities.detect(environment: invocation.environment)
        let graphics = invocation.arguments.value("--graphics").flatMap { $0 == "auto" ? nil : $0 }
        invocation.logger.info("attached to the daemon (\(link.mode.title)); graphics: \(capabilities.choose(override: graphics).mode.rawValue)")
        // A lost terminal ends the screen through its hang-up on stdin; the daemon's calls go on.
        signal(SIGHUP, SIG_IGN)
        let app = TUIApp(link: link, config: config, capabilities: capabilities, options: TUIOptions(
            kiosk: kiosk, graphics: graphics, bell: !invocation.arguments.has("--no-bell"),
            notify: invocation.arguments.has("--no-notify") ? .off : config.notify.terminal, label: nil, call: nil,
            childCommand: childCommand(invocation)))
        do {
            try await app.run()
        } catch {
            stderrLog.restore()
            return Console.fail("\(error)", code: ExitCode.failure)
        }
        return ExitCode.ok
    }

    /// intercom as the journal's Enter starts it (`watch … --at`, `log --play`): intercom-full (this
    /// program, or the one beside the launcher), which runs both itself, with this screen's `--config`
    /// and `--graphics`; nil without /proc.
    public static func childCommand(_ invocation: Invocation) -> [String]? {
        guard let program = SiblingProgram.path(.full) else { return nil }
        return [program] + ["--config", "--graphics"].flatMap { option in
            invocation.arguments.value(option).map { [option, $0] } ?? []
        }
    }
}
