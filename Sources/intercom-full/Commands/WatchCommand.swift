import Foundation
import IntercomCLI
import IntercomDaemon
import IntercomEngine
import IntercomTUI
import IntercomBase
import IntercomPhone
import IntercomAttach

/// `intercom watch [PANEL|CAMERA] [--at TIME]`: the panel's camera, or an operator's camera (its
/// HLS stream, or its recording from `--at`), live in the terminal, without a call. A view
/// of the terminal client: the pictures come from the intercom's peephole hub — the panel's RTSP
/// stream at its own rate (capped by `--fps`), with its JPEG snapshots (2 a second, or `--fps`)
/// until the stream plays and whenever it cannot — and are drawn as the call screen draws them. The screen is the
/// alternate one and is always given back (q, Ctrl-C, SIGTERM, a failed panel alike).
enum WatchCommand {
    static let spec = CommandSpec(
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
        details: "With this user's daemon running, the screen attaches to it: the daemon plays the panel's or camera's "
            + "picture once for every screen that shows it.",
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let fps = invocation.arguments.value("--fps").map { Double($0) ?? -1 }
        if let fps, !(fps >= 0.2 && fps <= 30) {
            return Console.fail("--fps takes a number from 0.2 to 30; see 'intercom watch --help'", code: ExitCode.usage)
        }
        // What to show: a panel, or an operator camera and what of it.
        let cameraID = OperatorCameraCommand.cameraID(invocation)
        var at: Date?
        let shown: String
        if let cameraID {
            switch OperatorCameraCommand.at(invocation) {
            case .success(let from): at = from
            case .failure(let failure): return Console.fail(failure.message, code: failure.code)
            }
            shown = cameraID
        } else {
            if invocation.arguments.value("--at") != nil {
                return Console.fail("--at is for operator cameras (OPERATOR:cam:ID); a panel keeps no recording",
                                    code: ExitCode.usage)
            }
            switch PanelCommand.client(invocation) {
            case .success(let found): shown = found.0.name
            case .failure(let failure): return Console.fail(failure.message, code: failure.code)
            }
        }
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        // The daemon is the intercom: a screen started beside it attaches.
        if !invocation.arguments.has("--own-engine"), RunningDaemon.pid(socketPath: config.daemon.socketPath) != nil {
            return await runAttached(config, invocation: invocation, shown: shown, camera: cameraID.map { ($0, at) }, fps: fps)
        }
        // The intercom only for its panels, cameras and peephole: the phone is never started.
        let intercom = TUICommand.engine(config, PhoneSettings(config: config, environment: invocation.environment),
                                         invocation, logger: TUICommand.quietLogger(invocation))
        let link = LocalLink(intercom)
        if let cameraID {
            // Asked before the screen opens, so an unknown or unplayable camera is one line.
            do {
                try await link.watchCamera(id: cameraID, at: at)
            } catch {
                await intercom.stop()
                let known = error as? IntercomError
                return Console.fail(known?.description ?? "\(error)", code: known?.exitCode ?? ExitCode.failure)
            }
        }
        guard isatty(1) == 1, isatty(0) == 1 else {
            await intercom.stop()
            return Console.fail("watch needs a terminal; use 'intercom snapshot --show' for one picture", code: ExitCode.usage)
        }
        let app = screen(link, config: await intercom.config, invocation: invocation,
                         watch: WatchOptions(panel: shown, fps: fps, camera: cameraID != nil))
        let code = await run(app)
        await intercom.stop()
        return code
    }

    /// Attached to this user's daemon: it plays the picture (once for every screen showing it) and
    /// sends it at this window's size; quitting ends only this screen's subscriptions.
    static func runAttached(_ config: IntercomConfig, invocation: Invocation, shown: String,
                            camera: (id: String, at: Date?)?, fps: Double?) async -> Int32 {
        guard isatty(1) == 1, isatty(0) == 1 else {
            return Console.fail("watch needs a terminal; use 'intercom snapshot --show' for one picture", code: ExitCode.usage)
        }
        let link: RemoteLink
        do {
            link = try RemoteLink(path: config.daemon.socketPath, screen: "watch")
        } catch {
            return Console.fail("cannot attach to this user's intercom daemon: \(error.description); "
                + "'intercom watch --own-engine' runs the screen with its own engine", code: error.exitCode)
        }
        defer { link.detach() }
        if let camera {
            // Asked before the screen opens, so an unknown or unplayable camera is one line.
            do {
                try await link.watchCamera(id: camera.id, at: camera.at)
            } catch {
                return Console.fail("\(error)", code: ExitCode.unavailable)
            }
        }
        return await run(screen(link, config: config, invocation: invocation, watch: WatchOptions(panel: shown, fps: fps)))
    }

    static func screen(_ link: any IntercomLink, config: IntercomConfig, invocation: Invocation, watch: WatchOptions) -> TUIApp {
        let capabilities = TerminalCapabilities.detect(environment: invocation.environment)
        let graphics = invocation.arguments.value("--graphics").flatMap { $0 == "auto" ? nil : $0 }
        let choice = capabilities.choose(override: graphics)
        invocation.logger.info("graphics: \(choice.mode.rawValue) — \(choice.reason)")
        return TUIApp(link: link, config: config, capabilities: capabilities,
                      options: TUIOptions(graphics: graphics, bell: false, notify: .off, watch: watch))
    }

    /// Runs the watch screen until q or a signal; its exit code.
    static func run(_ app: TUIApp) async -> Int32 {
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
