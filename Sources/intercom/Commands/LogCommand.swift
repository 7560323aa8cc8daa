import Foundation
import IntercomCore

/// `intercom log`: the event journal the daemon keeps, as a table or JSON lines.
enum LogCommand {
    static let spec = CommandSpec(
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
            let time = IntercomEvent.rfc3339(e.time).prefix(19).replacingOccurrences(of: "T", with: " ")
            let outcome: String
            let caller: String
            switch e.kind {
            case .call:
                caller = e.caller ?? ""
                outcome = e.outcome.map { o in e.answeredBy.map { "\(o) (answered: \($0))" } ?? (e.missed ? "missed (\(o))" : o) }
                    ?? "in progress"
            case .door:
                caller = "door \(e.detail ?? "?")"
                outcome = "opened by \(e.method ?? "?")" + (e.ok == false ? " FAILED\(e.error.map { ": \($0)" } ?? "")" : "")
            case .panelEvent:
                caller = "alarm"
                outcome = "\(e.detail ?? "?") \(e.method ?? "")"
            }
            let duration = e.durationSeconds.map { String(format: "%.0fs", $0) } ?? ""
            rows.append([String(time), e.panel ?? "-", caller, outcome, duration, e.answerPicture ?? e.firstPicture ?? ""])
        }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in i == 5 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
