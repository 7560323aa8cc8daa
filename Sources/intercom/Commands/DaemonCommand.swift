import Foundation
import IntercomCore

/// `intercom daemon`: no terminal; applies the panels' policies and reports events.
enum DaemonCommand {
    static let spec = CommandSpec(
        name: "daemon",
        summary: "run headless: listen for panel calls, auto-answer per panel, print events",
        options: [
            .value("--events", "FORMAT", "json: one JSON object per event on stdout; none (default)", choices: ["json", "none"]),
        ],
        details: """
        Events are those of INTERFACE.md (started, registered, call_incoming, call_answered, call_ended, …).
        SIGTERM or SIGINT ends calls in progress and exits 0.
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
        let intercom = Intercom(config: config, phoneSettings: PhoneSettings(config: config, environment: invocation.environment),
                                logger: logger)
        let printJSON = invocation.arguments.value("--events") == "json"
        let events = intercom.bus.subscribe()
        let printer = Task {
            for await event in events {
                if printJSON { Console.out(event.json.encoded) }
                logger.info("\(event.name) \(event.call.map { "\($0.id) from \($0.from)" } ?? "")")
            }
        }
        let signals = SignalWatcher([SIGTERM, SIGINT, SIGHUP])
        // The socket comes first: a second daemon on the same socket stops here, before it takes
        // SIP ports. Commands that arrive before the phone runs get "the SIP phone is not running".
        let control = ControlServer(path: config.daemon.socketPath, intercom: intercom, logger: logger)
        do {
            try control.start()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        do {
            try await intercom.start()
        } catch let error as PhoneError {
            control.stop()
            return Console.fail(error.description, code: error.exitCode)
        } catch {
            control.stop()
            return Console.fail("\(error)", code: ExitCode.failure)
        }
        await intercom.watchPanels()
        let listening = await intercom.listening.map(\.description).joined(separator: ", ")
        logger.notice("listening on \(listening)")
        for await number in signals.signals {
            if number == SIGHUP {
                logger.notice("SIGHUP: config reload is not supported yet; restart the daemon to apply changes")
                continue
            }
            logger.notice("signal \(number): ending calls and stopping")
            break
        }
        control.stop()
        await intercom.stop()
        await printer.value
        return ExitCode.ok
    }
}
