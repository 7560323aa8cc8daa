import Foundation
import IntercomBase
import IntercomPostgres

/// `intercom log` at a desk of a site (issue 40): the whole site's journal, read from its store by
/// the light binary itself (IntercomPostgres: libpq, no engine, no liblinphone): scripts call `log` often.
extension LogCommand {
    static let siteHeader = ["TIME", "DESK", "OPERATOR", "PANEL", "CALLER", "OUTCOME", "DURATION"]

    /// The site's journal printed; nil when its store cannot be reached (said on stderr: this
    /// desk's own journal is shown instead, as without a site). A schema this program cannot read
    /// (none yet, older, newer) and a bad `[site]` are the config's fault: exit 65 with what to do.
    static func siteLog(_ site: SiteConfig, _ query: JournalQuery, _ invocation: Invocation) async -> Int32? {
        let filter = SiteJournalQuery(since: query.since, desk: invocation.arguments.value("--desk"), panel: query.panel,
                                       missedOnly: query.missedOnly, unhandledOnly: query.unhandledOnly, limit: query.limit)
        let records: [SiteJournalRecord]
        do {
            records = try await SiteJournalRead.read(site, filter)
        } catch {
            switch error.kind {
            case .settings, .schema: return Console.fail(error.message, code: ExitCode.dataError)
            case .connect, .lost, .statement:
                Console.error("intercom: the site's journal cannot be read (\(error.message)); this desk's own journal follows")
                return nil
            }
        }
        if invocation.arguments.has("--json") {
            // One write for all the lines, not one per entry.
            if !records.isEmpty { Console.out(records.map(\.json.encoded).joined(separator: "\n")) }
        } else {
            Console.out(TextTable.render([siteHeader] + records.map(siteCells)))
        }
        return ExitCode.ok
    }

    static func siteCells(_ record: SiteJournalRecord) -> [String] {
        let e = record.entry
        return [localTime(e.time), record.desk, record.operatorName ?? "", e.placeText, e.subjectText, e.outcomeText,
                e.durationSeconds.map { "\(Int($0.rounded()))s" } ?? ""]
    }

    /// The command line as it was given, for intercom-full to run (`--play`).
    static func handOver(_ invocation: Invocation) -> Int32 {
        var arguments = [invocation.command]
        for (key, value) in invocation.arguments.values.sorted(by: { $0.key < $1.key }) { arguments += [key, value] }
        arguments += invocation.arguments.flags.sorted()
        return SiblingProgram.exec(.full, arguments)
    }
}
