import Foundation
import IntercomCLI
import IntercomDaemon
import IntercomCore
import IntercomOperator
import IntercomTUI
import IntercomBase
import IntercomPhone
import IntercomScreenCommands
import IntercomAttach

/// `intercom` / `intercom tui [--kiosk]`: the full-screen client.
enum TUICommand {
    static let options = TUIScreenCommand.options
    static let spec = TUIScreenCommand.spec(run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        FirstRun.hintIfUnconfigured(config)
        // The daemon is the intercom: a screen started beside it attaches (the light `intercom` runs
        // that one itself; this is for a daemon that came up since it looked).
        if TUIScreenCommand.attaches(invocation, config: config) {
            return await TUIScreenCommand.runAttached(config, invocation: invocation)
        }
        let settings = phoneSettings(config, invocation)
        do {
            try settings.checkPrivateFallback()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        if let refused = refuseUntrustedSwitches(invocation) { return refused }
        let intercom = engine(config, settings, invocation, logger: quietLogger(invocation))
        return await runScreen(intercom, invocation: invocation, kiosk: invocation.arguments.has("--kiosk"), label: nil)
    }

    /// `intercom call`: a call that never got through is a failure for scripts.
    static func outcome(of reason: CallEndReason, panel: String?) -> Int32 {
        let name = panel ?? "the panel"
        switch reason {
        case .hangup, .remoteHangup, .transferred:
            Console.out("call with \(name) ended: \(reason.rawValue)")
            return ExitCode.ok
        case .declined, .missed, .answeredElsewhere, .busy, .error:
            return Console.fail("the call to \(name) did not get through (\(reason.rawValue)); check the panel accepts calls and its dial URI",
                                code: ExitCode.unavailable)
        }
    }

    /// The config's phone, ringing with `[audio] ringtone` unless `--no-ring`.
    /// The engine for a command. What it reads from the environment comes from the invocation's, as
    /// the config and the phone's folders do, never from the process's: the demo's private state
    /// folder is where the operator tokens are looked up.
    static func engine(_ config: IntercomConfig, _ settings: PhoneSettings, _ invocation: Invocation,
                       logger: Logger) -> Intercom {
        Intercom(config: config, phoneSettings: settings, logger: logger,
                 operatorTokens: OperatorTokenStore(environment: invocation.environment),
                 switches: PanelSwitchStore(environment: invocation.environment))
    }

    /// The saved switches the daemon and the terminal client start with, checked first: a file they
    /// cannot trust stops them (exit 78) instead of bringing back the config's guest mode.
    static func refuseUntrustedSwitches(_ invocation: Invocation) -> Int32? {
        do {
            try PanelSwitchStore(environment: invocation.environment).check()
            return nil
        } catch {
            // Every StateFileError ends in "remove it": removing the file is the way back to the config.
            return Console.fail("not starting: the saved do-not-disturb and guest switches cannot be trusted: \(error) "
                                + "to start from the config's calls and guest_until", code: ExitCode.configuration)
        }
    }

    static func phoneSettings(_ config: IntercomConfig, _ invocation: Invocation) -> PhoneSettings {
        var settings = PhoneSettings(config: config, environment: invocation.environment)
        if !invocation.arguments.has("--no-ring") {
            settings.ringtone = Ringtone.resolve(config.audio.ringtone, executable: "/proc/self/exe",
                                                 environment: invocation.environment)
        }
        return settings
    }

    /// The screen owns the terminal, so the intercom logs only errors while it runs.
    static func quietLogger(_ invocation: Invocation) -> Logger {
        var logger = invocation.logger
        if invocation.arguments.value("--log-level") == nil { logger.minimumLevel = .error }
        return logger
    }

    /// Starts the intercom, runs the screen until the user quits (or a signal of `stopOn` arrives), stops
    /// the intercom.
    static func runScreen(_ intercom: Intercom, invocation: Invocation, kiosk: Bool, label: String?,
                          call: OutgoingCall? = nil, stopOn signals: SignalWatcher? = nil,
                          beforeScreen: @Sendable () async -> Void = {}) async -> Int32 {
        guard isatty(0) == 1, isatty(1) == 1 else {
            return Console.fail(TUIError.notATerminal.description, code: ExitCode.usage)
        }
        // The resident's journal, hooks, MQTT and desktop notifications, as under the daemon (unless a
        // daemon already records: then the missed-call queue's `c` still marks entries in its journal).
        // The screen runs its own engine, so it posts the desktop notification the daemon would.
        let notify = !invocation.arguments.has("--no-notify")
        let notifySettings = await intercom.config.notify
        let parts = EngineHostParts(intercom: intercom, options: .init(environment: invocation.environment, logger: intercom.logger,
                                                                       readsOthersJournal: true, mqtt: MQTTFrontEnd.make))
        let host = IntercomHost(HostStage.screen(notify: notify), parts: parts)
        do {
            try await host.start()
        } catch let error as PhoneError {
            if case .portInUse(let address) = error,
               let line = RunningDaemon.portInUse(address.description, socketPath: await intercom.config.daemon.socketPath,
                                                  config: await intercom.config.path) {
                return Console.fail(line, code: error.exitCode)
            }
            return Console.fail(error.description, code: error.exitCode)
        } catch {
            return Console.fail("\(error)", code: ExitCode.failure)
        }
        let desktop = await parts.desktop
        // C libraries (openh264, mediastreamer) write to stderr on their own; on the screen that is
        // garbage, so stderr goes to a log file while the screen runs.
        let stderrLog = StderrRedirect(toLogIn: invocation.environment, logger: invocation.logger)
        defer { stderrLog.restore() }
        await beforeScreen()
        let capabilities = TerminalCapabilities.detect(environment: invocation.environment)
        let graphics = invocation.arguments.value("--graphics").flatMap { $0 == "auto" ? nil : $0 }
        // Into tui.log with --log-level info: which picture mode this terminal got, and why.
        let choice = capabilities.choose(override: graphics)
        invocation.logger.info("graphics: \(choice.mode.rawValue) — \(choice.reason)")
        // A terminal that goes away (ssh dropped) ends the screen through its hang-up on stdin,
        // so calls are hung up and the journal closed instead of the process dying mid-call.
        signal(SIGHUP, SIG_IGN)
        // One popup per ring: where this process already posts the desktop notification (with its
        // buttons), `auto` leaves the terminal's escape out; `on` posts both.
        let terminalNotify: NotifyMode = !notify ? .off
            : desktop != nil && notifySettings.terminal == .auto ? .off : notifySettings.terminal
        let app = TUIApp(link: LocalLink(intercom, screen: kiosk ? "kiosk" : "tui"), config: await intercom.config, capabilities: capabilities, options: TUIOptions(
            kiosk: kiosk, graphics: graphics, bell: !invocation.arguments.has("--no-bell"),
            notify: terminalNotify, label: label, call: call, childCommand: TUIScreenCommand.childCommand(invocation)))
        let ended: Result<CallEndReason?, any Error>
        do {
            if let signals {
                ended = .success(try await signals.whileRunning({ app.stop() }) { try await app.run() })
            } else {
                ended = .success(try await app.run())
            }
        } catch {
            ended = .failure(error)
        }
        // Messages from here on are for the user's terminal, not the log.
        stderrLog.restore()
        let code: Int32
        switch ended {
        case .success(let reason):
            code = call != nil ? reason.map { outcome(of: $0, panel: call?.panel) } ?? ExitCode.ok : ExitCode.ok
        case .failure(let error as IntercomError):
            code = Console.fail(error.description, code: error.exitCode)
        case .failure(let error):
            code = Console.fail("\(error)", code: ExitCode.failure)
        }
        await host.stop()
        return code
    }
}
