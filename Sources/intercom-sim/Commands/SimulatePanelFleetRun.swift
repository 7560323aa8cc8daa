import Foundation
import IntercomBase
import IntercomCLI
import IntercomPhone
import IntercomSimulator

/// `simulate-panel --count N`: N panels in one process. Each prints one `panel` line (name, HTTP
/// URL, SIP listen address, From URI), then `panels ready: N`; their happenings follow prefixed with
/// the panel's name. Nothing rings by itself: a line `ring NAME` (or `ring 7`) on stdin rings --call
/// from that panel, `hangup NAME` ends its call; SIGUSR1 rings from the first panel.
enum SimulatePanelFleetRun {
    static func run(_ settings: SimulatePanelCommand.Settings, logger: Logger) async -> Int32 {
        let printer = LinePrinter(json: settings.json)
        let signals = SignalWatcher([SIGTERM, SIGINT, SIGUSR1])
        let fleet: SimulatedPanelFleet
        do {
            fleet = try await SimulatedPanelFleet.start(count: settings.count, options: settings.http,
                                                        sip: settings.sip, logger: logger)
        } catch let error as SimulatorError {
            return Console.fail("\(error.description); choose other base ports (0 picks free ones)", code: ExitCode.unavailable)
        } catch let error as PhoneError {
            return Console.fail(error.description.replacingOccurrences(of: "; stop the other program or change [sip] listen", with: "")
                                + "; choose another --sip-port (0 picks free ones)", code: error.exitCode)
        } catch {
            return Console.fail("the simulated panels failed to start: \(error)", code: ExitCode.failure)
        }
        var watchers: [Task<Void, Never>] = []
        for member in fleet.members {
            let panel = member.panel
            printer.fleetPanel(name: member.name, url: panel.http.baseURL, listen: panel.sipListening.description,
                               from: panel.sipURI, rtsp: panel.rtsp?.url(.main))
            let own = printer.member(member.name)
            watchers.append(Task { for await event in panel.events { own.print(event) } })
        }
        printer.fleetReady(count: fleet.members.count)
        let commands = Task {
            for await line in StandardInputLines.stream() {
                await obey(line, fleet: fleet, call: settings.call, printer: printer)
            }
        }
        for await signal in signals.signals {
            guard signal == SIGUSR1 else { break }
            await obey("ring 1", fleet: fleet, call: settings.call, printer: printer)
        }
        commands.cancel()
        await fleet.stop()
        for watcher in watchers { await watcher.value }
        printer.stopped()
        return ExitCode.ok
    }

    /// One control line: `ring NAME|N` or `hangup NAME|N`; anything else is a one-line error.
    private static func obey(_ line: String, fleet: SimulatedPanelFleet, call: String?, printer: LinePrinter) async {
        let words = line.split(separator: " ").map(String.init)
        guard words.count == 2, ["ring", "hangup"].contains(words[0]) else {
            if !words.isEmpty { printer.error("unknown control '\(line)': say 'ring NAME' or 'hangup NAME' (NAME or its number)") }
            return
        }
        guard let member = fleet.member(words[1]) else {
            printer.error("no panel '\(words[1])': the names are \(fleet.members.first?.name ?? "")…\(fleet.members.last?.name ?? "") or 1…\(fleet.members.count)")
            return
        }
        if words[0] == "hangup" { return await member.panel.hangup() }
        guard let call else { return printer.error("ring needs --call URI") }
        do {
            try await member.panel.ring(call)
        } catch {
            printer.error("\(member.name) cannot call \(call): \(error)")
        }
    }
}
