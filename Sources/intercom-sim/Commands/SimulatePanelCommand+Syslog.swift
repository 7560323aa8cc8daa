import IntercomBase
import IntercomCLI
import IntercomSimulator

/// `--syslog udp:HOST:PORT`: the simulated panel sends a Beward panel's syslog lines there (its
/// `rsyslog_cgi` target): on a call it places and a door a digit opened, and for each line typed on
/// stdin (`key ID`, `code CODE`, `button main|alt`, `handset FLAT`, `calling FLAT`, `answered FLAT`).
extension SimulatePanelCommand {
    /// The flat the single simulated panel calls, in its syslog lines.
    static let syslogFlat = 1

    static func syslogSender(_ arguments: ParsedArguments, fail: (String) -> UsageError) throws(UsageError) -> SimulatedSyslog? {
        guard let text = arguments.value("--syslog") else { return nil }
        let address: ListenAddress
        do {
            address = try ListenAddress(parsing: text)
        } catch {
            throw fail("option '--syslog' takes udp:HOST:PORT (an IPv4 address), not '\(text)': \(error.message)")
        }
        guard address.transport == .udp, address.port > 0 else {
            throw fail("option '--syslog' takes udp:HOST:PORT with a port above 0, not '\(text)'")
        }
        do {
            return try SimulatedSyslog(to: address.host, port: address.port)
        } catch {
            throw fail("option '--syslog': \(error.description)")
        }
    }

    /// Sends the lines typed on stdin until it ends; a line that is no happening is said on stderr.
    static func sendTypedLines(_ syslog: SimulatedSyslog, _ printer: LinePrinter) async {
        for await line in StandardInputLines.stream() {
            guard let happening = SimulatedSyslog.happening(command: line, flat: syslogFlat) else {
                printer.error("not a syslog happening: '\(line)' (key ID, code CODE, button main|alt, handset FLAT, calling FLAT, answered FLAT)")
                continue
            }
            syslog.send(happening)
        }
    }
}
