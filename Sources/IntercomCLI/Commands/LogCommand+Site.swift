import Foundation
import IntercomBase

/// One entry of a site's journal as `intercom log` shows it: the entry, the desk that wrote it (and
/// holds its pictures and clips), who acted there, and its JSON (`desk`, `desk_operator`, `site_id`…).
public struct SiteLogRow: Sendable {
    public var entry: JournalEntry
    public var desk: String
    public var operatorName: String?
    public var json: JSONValue

    public init(entry: JournalEntry, desk: String, operatorName: String?, json: JSONValue) {
        (self.entry, self.desk, self.operatorName, self.json) = (entry, desk, operatorName, json)
    }
}

/// Why a site's journal could not be read: the config's fault (exit 65), or the store's, which
/// leaves this desk's own journal to show.
public enum SiteLogFailure: Error, Sendable {
    case config(String)
    case unreachable(String)
}

/// `intercom log` at a desk of a site (issue 40): the whole site's journal, read from its store by
/// intercom-full (the one binary that links the PostgreSQL part).
extension LogCommand {
    /// Reads the site's journal: `query`'s filters, `desk` narrowing to one desk.
    public typealias SiteLogReader = @Sendable (_ site: SiteConfig, _ query: JournalQuery, _ desk: String?) async throws(SiteLogFailure) -> [SiteLogRow]

    static let siteHeader = ["TIME", "DESK", "OPERATOR", "PANEL", "CALLER", "OUTCOME", "DURATION"]

    /// The site's journal printed; nil when its store cannot be reached (said on stderr: this
    /// desk's own journal is shown instead, as without a site).
    static func siteLog(_ site: SiteConfig, _ query: JournalQuery, _ invocation: Invocation, reader: SiteLogReader) async -> Int32? {
        let rows: [SiteLogRow]
        do {
            rows = try await reader(site, query, invocation.arguments.value("--desk"))
        } catch {
            switch error {
            case .config(let why): return Console.fail(why, code: ExitCode.dataError)
            case .unreachable(let why):
                Console.error("intercom: the site's journal cannot be read (\(why)); this desk's own journal follows")
                return nil
            }
        }
        if invocation.arguments.has("--json") {
            for row in rows { Console.out(row.json.encoded) }
        } else {
            Console.out(TextTable.render([siteHeader] + rows.map(siteCells)))
        }
        return ExitCode.ok
    }

    static func siteCells(_ row: SiteLogRow) -> [String] {
        let e = row.entry
        return [localTime(e.time), row.desk, row.operatorName ?? "", e.placeText, e.subjectText, e.outcomeText,
                e.durationSeconds.map { "\(Int($0.rounded()))s" } ?? ""]
    }

    /// The command line as it was given, for intercom-full to run (`--play`, a site's journal).
    static func handOver(_ invocation: Invocation) -> Int32 {
        var arguments = [invocation.command]
        for (key, value) in invocation.arguments.values.sorted(by: { $0.key < $1.key }) { arguments += [key, value] }
        arguments += invocation.arguments.flags.sorted()
        return SiblingProgram.exec(.full, arguments)
    }
}
