import Foundation
import IntercomAttach
import IntercomBase
import IntercomCLI
import IntercomTUI

/// `intercom watch [PANEL|CAMERA] [--at TIME]`: the command line both binaries read, what it asks to
/// see, and the screen attached to this user's daemon. The light `intercom` runs the attached watch
/// itself (no engine, no phone), as it runs the attached `tui`; intercom-full runs it with an engine of
/// its own (its `WatchCommand`), and attached when a daemon came up since the light binary looked.
public enum WatchScreenCommand {
    /// `watch`'s options and help; `run` is what the binary does with them.
    public static func spec(run: @escaping CommandSpec.Run) -> CommandSpec {
        CommandSpec(
            name: "watch",
            arguments: "[PANEL|CAMERA]",
            maxPositionals: 1,
            options: [
                .value("--graphics", "MODE", "auto|kitty|sixel|iterm|symbols|ascii (default auto)", choices: GraphicsMode.optionChoices),
                .value("--fps", "N", "most pictures per second to draw, 0.2–30 (default: the live stream's own rate; snapshots 2)"),
                .value("--at", "TIME", "an operator camera's recording from TIME (RFC 3339 or 'YYYY-MM-DD HH:MM' local); "
                       + "an operator door (OPERATOR:PANEL:DOOR) plays its panel's camera"),
                .flag("--own-engine", "run an engine of its own even when this user's daemon runs (the screen attaches to it otherwise)"),
            ],
            details: "With this user's daemon running this config, the screen attaches to it: the daemon plays the panel's "
                + "or camera's picture once for every screen that shows it, and the screen attaches again by itself after "
                + "the daemon restarts.",
            run: run)
    }

    /// What a watch shows, as its command line says.
    public struct Target: Sendable {
        /// The panel's name, or the operator camera's id (the watch line's title).
        public var shown: String
        /// An operator camera (or door) id, with `--at` (its recording from then); nil for a panel.
        public var cameraID: String?
        public var at: Date?
        /// `--fps`, checked to be 0.2–30.
        public var fps: Double?
    }

    /// The target on the command line, or the line to print: `--fps` out of range, `--at` for a panel,
    /// an unknown panel, a bad `--at`. Reads the config; makes no HTTP client and asks nobody.
    public static func target(_ invocation: Invocation) -> Result<Target, CommandError> {
        let fps = invocation.arguments.value("--fps").map { Double($0) ?? -1 }
        if let fps, !(fps >= 0.2 && fps <= 30) {
            return .failure(CommandError("--fps takes a number from 0.2 to 30; see 'intercom watch --help'", code: ExitCode.usage))
        }
        if let cameraID = OperatorCameraArguments.cameraID(invocation) {
            return OperatorCameraArguments.at(invocation).map { Target(shown: cameraID, cameraID: cameraID, at: $0, fps: fps) }
        }
        if invocation.arguments.value("--at") != nil {
            return .failure(CommandError("--at is for operator cameras (OPERATOR:cam:ID); a panel keeps no recording",
                                         code: ExitCode.usage))
        }
        return PanelCommand.named(invocation).map { Target(shown: $0.name, cameraID: nil, at: nil, fps: fps) }
    }

    /// Whether this watch attaches: no `--own-engine`, and this user's daemon answers on its socket serving
    /// this config (a daemon of another config leaves it an engine of its own: `ScreenPlacement`).
    public static func attaches(_ invocation: Invocation, config: IntercomConfig) -> Bool {
        ScreenAttach.attaches(invocation, config: config, logger: invocation.logger)
    }

    /// Attached to this user's daemon: it plays the picture (once for every screen showing it) and
    /// sends it at this window's size; quitting ends only this screen's subscriptions.
    public static func runAttached(_ config: IntercomConfig, invocation: Invocation, target: Target) async -> Int32 {
        guard isatty(1) == 1, isatty(0) == 1 else {
            return Console.fail("watch needs a terminal; use 'intercom snapshot --show' for one picture", code: ExitCode.usage)
        }
        let link: RemoteLink
        do {
            link = try RemoteLink(path: config.daemon.socketPath, screen: "watch", config: .file(config.path))
        } catch {
            return Console.fail("cannot attach to this user's intercom daemon: \(error.description); "
                + "'intercom watch --own-engine' runs the screen with its own engine", code: error.exitCode)
        }
        defer { link.detach() }
        if let cameraID = target.cameraID {
            // Asked before the screen opens, so an unknown or unplayable camera is one line.
            do {
                try await link.watchCamera(id: cameraID, at: target.at)
            } catch {
                return Console.fail("\(error)", code: ExitCode.unavailable)
            }
        }
        return await run(screen(link, config: config, invocation: invocation,
                                watch: WatchOptions(panel: target.shown, fps: target.fps)))
    }

    /// The watch screen on `link` (the daemon's, or intercom-full's own engine's).
    public static func screen(_ link: any IntercomLink, config: IntercomConfig, invocation: Invocation,
                              watch: WatchOptions) -> TUIApp {
        let capabilities = TerminalCapabilities.detect(environment: invocation.environment)
        let graphics = invocation.arguments.value("--graphics").flatMap { $0 == "auto" ? nil : $0 }
        let choice = capabilities.choose(override: graphics)
        invocation.logger.info("graphics: \(choice.mode.rawValue) — \(choice.reason)")
        return TUIApp(link: link, config: config, capabilities: capabilities,
                      options: TUIOptions(graphics: graphics, bell: false, notify: .off, watch: watch))
    }

    /// Runs the watch screen until q or a signal; its exit code.
    public static func run(_ app: TUIApp) async -> Int32 {
        // Ctrl-C is a key on the watch screen; SIGTERM, SIGINT and SIGHUP close it as q does.
        let signals = SignalWatcher([SIGINT, SIGTERM, SIGHUP])
        do {
            _ = try await signals.whileRunning({ app.stop() }) { try await app.run() }
            return ExitCode.ok
        } catch let error as TUIError {
            return Console.fail(error.description, code: ExitCode.usage)
        } catch {
            return Console.fail("\(error)", code: ExitCode.failure)
        }
    }
}
