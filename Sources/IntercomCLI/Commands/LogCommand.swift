import Foundation
import IntercomBase

/// `intercom log`: the event journal the daemon keeps, as a table or JSON lines.
public enum LogCommand {
    public static let spec = CommandSpec(
        name: "log",
        summary: "show the event journal: who rang, when, the outcome and their picture",
        options: [
            .flag("--json", "one JSON object per entry"),
            .value("--since", "WHEN", "1h, 30m, 2d, 1w, or a date YYYY-MM-DD [HH:MM]"),
            .value("--panel", "PANEL", "only this panel"),
            .flag("--missed", "only calls nobody answered"),
            .value("--limit", "N", "only the newest N entries"),
        ],
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        var query = JournalQuery(panel: args.value("--panel"), missedOnly: args.has("--missed"))
        if let since = args.value("--since") {
            guard let date = JournalQuery.parseSince(since) else {
                return Console.fail(UsageError(message: "--since takes 1h, 2d, 1w or YYYY-MM-DD, not '\(since)'",
                                               command: "log").description, code: ExitCode.usage)
            }
            query.since = date
        }
        if let limit = args.value("--limit") {
            guard let n = Int(limit), n > 0 else {
                return Console.fail(UsageError(message: "--limit takes a positive number, not '\(limit)'",
                                               command: "log").description, code: ExitCode.usage)
            }
            query.limit = n
        }
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        let entries: [JournalEntry]
        do {
            let journal = try Journal(directory: JournalLocation.directory(config.journal, environment: invocation.environment),
                                      create: false)
            entries = try journal.entries(query)
        } catch {
            if case .noJournal = error {
                // An empty journal is not an error for scripts.
                if !args.has("--json") { Console.error("intercom: \(error.description)") }
                return ExitCode.ok
            }
            return Console.fail(error.description, code: ExitCode.failure)
        }
        if args.has("--json") {
            for entry in entries { Console.out(entry.json.encoded) }
        } else {
            Console.out(table(entries))
        }
        return ExitCode.ok
    }

    static func table(_ entries: [JournalEntry]) -> String {
        var rows = [["TIME", "PANEL", "CALLER", "OUTCOME", "DURATION", "PICTURE"]]
        for e in entries {
            let time = localTime(e.time)
            let duration = e.durationSeconds.map { "\(Int($0.rounded()))s" } ?? ""
            // Caller names and outcomes came from panels and servers: no control character reaches the terminal.
            rows.append([time, e.panel ?? "-", e.subjectText, e.outcomeText, duration, e.picture ?? ""].map(TerminalSafe.escape))
        }
        // Plain Swift string work: Foundation's padding and formatting cost more than the query on a big journal.
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var out = ""
        for row in rows {
            var line = ""
            for (i, cell) in row.enumerated() {
                if i > 0 { line += "  " }
                line += cell
                if i < 5 { line += String(repeating: " ", count: widths[i] - cell.count) }
            }
            while line.last == " " { line.removeLast() }
            if !out.isEmpty { out += "\n" }
            out += line
        }
        return out
    }

    /// `YYYY-MM-DD HH:MM:SS` in local time.
    static func localTime(_ date: Date) -> String {
        let local = LocalTime(date)
        return local.date + " " + local.clock
    }
}
