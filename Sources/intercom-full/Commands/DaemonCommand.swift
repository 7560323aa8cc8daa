import Foundation
import IntercomCLI
import IntercomDaemon
import IntercomCore
import IntercomBase
import IntercomPhone

/// `intercom daemon`: no terminal; applies the panels' policies and reports events.
enum DaemonCommand {
    static let spec = CommandSpec(
        name: "daemon",
        options: [
            .value("--events", "FORMAT", "json: one JSON object per event on stdout; none (default)", choices: ["json", "none"]),
        ],
        details: """
        Events: \(EventName.allCases.map(\.rawValue).joined(separator: ", ")) (docs/DAEMON.md).
        SIGTERM or SIGINT ends calls in progress and exits 0. SIGHUP reloads panel policies
        (calls, auto_answer, guest_until, source, match, auto_open_interval, dial, DTMF, open),
        hooks and journal retention
        without dropping calls; other changes are logged as needing a restart.
        Serves the control socket ([daemon] socket), keeps the journal ([journal]) and runs
        [hooks], publishes to MQTT with Home Assistant discovery ([mqtt], docs/MQTT.md); posts rings as desktop
        notifications with buttons ([notify] desktop); speaks sd_notify (READY, WATCHDOG, STOPPING) under systemd.
        """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let logger = invocation.logger
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        let settings = PhoneSettings(config: config, environment: invocation.environment)
        do {
            try settings.checkPrivateFallback()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        if let refused = TUICommand.refuseUntrustedSwitches(invocation) { return refused }
        let intercom = TUICommand.engine(config, settings, invocation, logger: logger)
        let printJSON = invocation.arguments.value("--events") == "json"
        let printer = EventPrinter(logger: logger)
        let pipeline = EventPipeline(intercom: intercom, config: config, environment: invocation.environment,
                                     logger: logger) { event in
            if printJSON { printer.print(event.json.encoded) }
            logger.info("\(event.name) \(event.call.map { "\($0.id) from \($0.from)" } ?? "")")
        }
        let mqtt = await MQTTFrontEnd.make(intercom, pipeline: pipeline, logger: logger)
        let signals = SignalWatcher([SIGTERM, SIGINT, SIGHUP])
        // The socket comes first: a second daemon on the same socket stops here, before it takes
        // SIP ports. Commands that arrive before the phone runs get "the SIP phone is not running".
        let shares = intercom.shareExpiryKeeper(store: ShareExpiryStore(environment: invocation.environment))
        let control = ControlServer(path: config.daemon.socketPath, intercom: intercom, logger: logger, shares: shares)
        do {
            try control.start()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        // Before the phone starts, so the first ring already finds the session bus connected.
        let desktop = await DesktopNotifier.start(intercom: intercom, mode: config.notify.desktop,
                                                  environment: invocation.environment, logger: logger)
        do {
            try await intercom.start()
        } catch let error as PhoneError {
            await desktop?.stop()
            control.stop()
            return Console.fail(error.description, code: error.exitCode)
        } catch {
            await desktop?.stop()
            control.stop()
            return Console.fail("\(error)", code: ExitCode.failure)
        }
        await mqtt?.start()
        // After the phone: a due end is taken back at once, and `share_expired` goes through the started pipeline.
        let sharesTask = Task { await shares.run() }
        await intercom.watchPanels()
        let listening = await intercom.listening.map(\.description).joined(separator: ", ")
        logger.notice("listening on \(listening)")
        if let problem = SoundCheck.problem(await intercom.audioDevices()) { logger.notice(problem) }
        // Said at start, not only at the first switch: under systemd `doctor` cannot see the sandbox.
        do {
            _ = try StateDirectory.inspect(StateDirectory.path(environment: invocation.environment))
        } catch {
            logger.warning("\(error); do-not-disturb and guest switches will be refused until it is fixed")
        }
        let systemd = SystemdNotifier(alive: { _ = await intercom.status })
        systemd.ready(status: "listening on \(listening)")
        for await number in signals.signals {
            if number == SIGHUP {
                systemd.reloading()
                await reload(invocation, intercom: intercom, hooks: pipeline.hooks, logger: logger)
                // A login since the last round (or a new [operator]) gets its event log copied now.
                await pipeline.operatorLog?.syncNow()
                systemd.ready(status: "listening on \(listening)")
                continue
            }
            logger.notice("signal \(number): ending calls and stopping")
            break
        }
        systemd.stopping()
        sharesTask.cancel()
        await sharesTask.value
        control.stop()
        await control.settle()
        await intercom.stop()
        await desktop?.stop()
        await pipeline.finish()
        await mqtt?.stop()
        return ExitCode.ok
    }

    /// SIGHUP: re-reads the config and applies panel policies and hooks; calls in progress go on.
    /// A config that no longer loads leaves everything as it was.
    static func reload(_ invocation: Invocation, intercom: Intercom, hooks: HookRunner, logger: Logger) async {
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            logger.error("SIGHUP: config not reloaded: \(error.description)")
            return
        }
        let notApplied = await intercom.updatePanels(config)
        await hooks.update(config.hookSettings)
        for line in notApplied { logger.warning("SIGHUP: \(line)") }
        logger.notice("SIGHUP: config reloaded (panel policies, hooks, journal retention)")
    }
}
