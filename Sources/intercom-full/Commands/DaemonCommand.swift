import Foundation
import IntercomCLI
import IntercomDaemon
import IntercomCore
import IntercomPanel
import IntercomBase
import IntercomPhone
import IntercomPostgres

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
        let parts = EngineHostParts(intercom: intercom, options: .init(environment: invocation.environment, logger: logger, first: { event in
            if printJSON { printer.print(event.json.encoded) }
            logger.info("\(event.name) \(event.call.map { "\($0.id) from \($0.from)" } ?? "")")
        }, mqtt: MQTTFrontEnd.make, site: SiteFrontEnd.make(environment: invocation.environment)))
        let host = IntercomHost(HostStage.daemon, parts: parts)
        let signals = SignalWatcher([SIGTERM, SIGINT, SIGHUP])
        do {
            try await host.start()
        } catch let error as ControlError {
            return Console.fail(error.description, code: error.exitCode)
        } catch let error as PhoneError {
            return Console.fail(error.description, code: error.exitCode)
        } catch let error as SyslogSocket.OpenError {
            return Console.fail(error.description, code: error.exitCode)
        } catch let error as PostgresError {
            return Console.fail("site: \(error.message)", code: error.kind == .connect || error.kind == .lost ? ExitCode.unavailable : ExitCode.dataError)
        } catch {
            return Console.fail("\(error)", code: ExitCode.failure)
        }
        for await number in signals.signals {
            if number == SIGHUP {
                await parts.reload(reloadedConfig(invocation, logger: logger))
                continue
            }
            logger.notice("signal \(number): ending calls and stopping")
            break
        }
        await host.stop()
        return ExitCode.ok
    }

    /// SIGHUP: the config as it is now; one that no longer loads leaves everything as it was.
    static func reloadedConfig(_ invocation: Invocation, logger: Logger) -> IntercomConfig? {
        do {
            return try invocation.loadConfig()
        } catch {
            logger.error("SIGHUP: config not reloaded: \(error.description)")
            return nil
        }
    }
}
