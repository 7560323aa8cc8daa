import Foundation
import IntercomBase
import IntercomOperator

/// `intercom log`: the event journal the daemon keeps, as a table or JSON lines, with the event
/// logs of the operators this client is logged in to beside it.
public enum LogCommand {
    /// Plays an entry's clips (oldest first) in the terminal: intercom-full's, which has the
    /// decoder and the screen; the light binary hands `--play` over to it.
    public typealias ClipPlayer = @Sendable (_ clips: [String], _ invocation: Invocation) async -> Int32

    public static let spec = spec(player: nil)

    /// At a desk of a site both binaries read the site's journal themselves (LogCommand+Site).
    public static func spec(player: ClipPlayer?) -> CommandSpec {
        CommandSpec(
            name: "log",
            options: [
                .flag("--json", "one JSON object per entry"),
                .flag("--wide", "every column whole on a terminal too, the picture path included"),
                .flag(PictureURL.showOption, "operator pictures' URLs whole (they open the picture without a login: shown as https://HOST/… otherwise)"),
                .value("--since", "WHEN", "1h, 30m, 2d, 1w, or a date YYYY-MM-DD [HH:MM]"),
                .value("--panel", "PANEL", "only this panel"),
                .flag("--missed", "only calls nobody answered (not one answered at another desk, nor one we placed)"),
                .flag("--unhandled", "only missed calls nobody has handled yet: the desk's queue of calls to return"),
                .value("--handled", "ENTRY", "mark missed call ENTRY (its id) handled, by --by WHO (default: $USER)"),
                .value("--by", "WHO", "with --handled: who handled it, kept in the journal"),
                .value("--limit", "N", "only the newest N entries"),
                .value("--operator", "NAME", "only this operator's event log"),
                .flag("--local", "only this desk's journal (no operator requests; at a desk of a site, not the site's)"),
                .value("--desk", "NAME", "at a desk of a site: only the entries desk NAME wrote"),
                .value("--play", "ENTRY", "replay the entry's recorded clip in the terminal (ENTRY: its id, the table's ID column)"),
                .value("--graphics", "MODE", "with --play: auto|kitty|sixel|iterm|symbols|ascii (default auto)"),
                .value("--export", "DIR", "save the recording around each operator entry shown into DIR (one MP4 each)"),
                .value("--around", "TIME", "with --export: how much before and after the entry: 30s (default), 2m; at most 10m"),
            ],
            details: """
                Operators: entries from the event log of every logged-in operator; --json entries carry
                "operator" and "event" (call_missed, call_answered, opened_by_key, opened_by_app,
                opened_by_face, opened_by_code, gate_by_call, opened_by_plate). A running daemon keeps a
                copy in the journal (every 5 minutes); an operator whose copy is missing or older than
                15 minutes, or the one --operator names, is asked live (the newest 7 days with entries
                unless --since says otherwise). --local asks no operator (the copy only). --panel shows
                that panel's entries only. An operator that cannot be read is named on stderr and the
                exit code says why; the rest is shown.

                Export: --export DIR saves, for each operator entry the other options select, the camera's
                recording from --around before the entry to --around after it (at most until now) as
                DIR/OPERATOR-YYYYMMDD-HHMMSS-EVENT.mp4, as 'intercom export' saves a piece: the camera of the
                entry's panel (cctv/camMap), or the entry's own camera. One line per entry; an entry without
                a known camera or recording is named on stderr and the exit code says why.

                Width: on a terminal the table fits its width: the PICTURE column only when it fits (--wide
                shows it always), and CALLER and OUTCOME cut with … where still too long. Piped, every column
                is printed whole, as scripts have always read it; --json is the form for scripts.

                Clips: panels with `record = calls` or `rings` leave video clips (--json: "clip", the
                call's recording or else its ring's; "ring_clip"); the table marks them [clip]. --play
                ENTRY (the table's ID, --json's "id") draws the entry's clips in the terminal with their sound on the playback device
                (q or Ctrl-C stops).

                Missed calls wait in a queue until someone handles them: --unhandled lists them (--json
                carries "handled_at" and "handled_by", null while waiting); --handled ENTRY --by WHO marks
                one handled, e.g. after calling the panel back (`intercom ctl handled ENTRY` does the same
                through the daemon, and `ctl callback ENTRY` calls the panel back and marks it once someone
                answers; a call back refused busy or not answered leaves it waiting, its OUTCOME saying
                "call back failed: WHY", --json "callback_failed").

                Site: at a desk with [site] the log is the whole site's journal, read from its store: DESK
                (the desk that wrote the entry and keeps its pictures and clips) and OPERATOR (who acted
                there) columns, --desk NAME narrows to one desk, --json carries "desk", "desk_operator",
                "site_id", "rang_at" and "claim"; operators' entries stay in this desk's journal (--local).
                A store that cannot be reached is said on stderr and this desk's own journal is shown.
                """,
            run: { await run($0, player: player) })
    }

    @Sendable static func run(_ invocation: Invocation, player: ClipPlayer?) async -> Int32 {
        let args = invocation.arguments
        if let entry = args.value("--play") { return await play(entry, invocation, player: player) }
        if let entry = args.value("--handled") { return markHandled(entry, invocation) }
        var query = JournalQuery(panel: args.value("--panel"), missedOnly: args.has("--missed"),
                                 unhandledOnly: args.has("--unhandled"))
        if let since = args.value("--since") {
            guard let date = JournalQuery.parseSince(since) else {
                return Console.fail(UsageError(message: "--since takes 1h, 2d, 1w or YYYY-MM-DD, not '\(since)'",
                                               command: "log").description, code: ExitCode.usage)
            }
            query.since = date
        }
        guard let around = around(args.value("--around")) else {
            return Console.fail(UsageError(message: "--around takes 30s, 2m or seconds, at most 10m; not '\(args.value("--around") ?? "")'",
                                           command: "log").description, code: ExitCode.usage)
        }
        if args.value("--around") != nil, args.value("--export") == nil {
            return Console.fail(UsageError(message: "--around goes with --export DIR", command: "log").description, code: ExitCode.usage)
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
        if let siteConfig = config.site, !args.has("--local"), args.value("--operator") == nil, args.value("--export") == nil {
            if let code = await siteLog(siteConfig, query, invocation) { return code }
        } else if args.value("--desk") != nil, config.site == nil {
            return Console.fail(UsageError(message: "--desk narrows a site's journal, and \(config.path ?? "the config") has no [site] (docs/SITE.md)",
                                           command: "log").description, code: ExitCode.usage)
        }
        let only = args.value("--operator")
        if let only, config.operator(named: only) == nil {
            return Console.fail("no operator '\(only)' in \(config.path ?? "the config")", code: ExitCode.usage)
        }
        query.operatorName = only
        var entries: [JournalEntry] = []
        var copies: [String: Date] = [:]
        var journalMissing: JournalError?
        do {
            let journal = try Journal(directory: JournalLocation.directory(config.journal, environment: invocation.environment),
                                      create: false)
            entries = try journal.entries(query)
            copies = try journal.operatorSyncTimes()
        } catch {
            guard case .noJournal = error else { return Console.fail(error.description, code: ExitCode.failure) }
            // An empty journal is not an error for scripts.
            journalMissing = error
        }
        var remote = OperatorSweep<JournalEntry>()
        // --panel names a panel: operator entries have none. --local asks no operator: the journal's
        // copy is all. Otherwise an operator is asked when --operator names it or the daemon's copy
        // of its log is missing or stale (no daemon syncing it).
        if !args.has("--local") && args.value("--panel") == nil {
            var scoped = config
            let now = Date()
            scoped.operators = config.operators.filter { op in
                if let only { return op.name.lowercased() == only.lowercased() }
                guard let synced = copies[op.name] else { return true }
                return now.timeIntervalSince(synced) > Journal.operatorCopyFreshness
            }
            remote = await OperatorSweep.run(scoped, environment: invocation.environment) { op, client throws(OperatorError) in
                try await OperatorLogFetch.fetch(op, client, since: query.since, missedOnly: query.missedOnly || query.unhandledOnly)
            }
        }
        if let journalMissing, remote.items.isEmpty, !args.has("--json") {
            Console.error("intercom: \(journalMissing.description)")
        }
        // An entry both fetched live and in the copy is shown once, as fetched.
        let fetched = Set(remote.items.map { "\($0.operatorName ?? "")\u{0}\($0.uuid ?? "")" })
        if !fetched.isEmpty {
            entries.removeAll { $0.kind == .operatorEvent && fetched.contains("\($0.operatorName ?? "")\u{0}\($0.uuid ?? "")") }
        }
        if let folder = args.value("--export") {
            let code = await export(entries + remote.items, to: folder, around: around, config: config,
                                    environment: invocation.environment)
            let swept = remote.finish(foundAnything: true)
            return code != ExitCode.ok ? code : swept
        }
        // Without live entries the journal's array is the list as it is (no copy of 100 000 entries).
        var rows = remote.items.isEmpty ? entries : entries + remote.items
        if !remote.items.isEmpty {
            rows.sort { $0.time < $1.time }
            if let limit = query.limit, rows.count > limit { rows = Array(rows.suffix(limit)) }
        }
        // Only the form asked for is built: the JSON of every row was a third of a 100 000-entry `log`.
        if args.has("--json") {
            let show = args.has(PictureURL.showOption)
            for row in rows { Console.out(PictureURL.masking("picture", in: row.json, show: show).encoded) }
        } else if journalMissing == nil || !rows.isEmpty {
            let width = args.has("--wide") ? nil : WindowSize.of(fd: STDOUT_FILENO)?.cols
            let show = args.has(PictureURL.showOption)
            Console.out(render(rows.map { cells($0, showURLs: show) }, width: width))
        }
        return remote.finish(foundAnything: true)
    }

    static func table(_ entries: [JournalEntry], width: Int? = nil) -> String {
        render(entries.map { cells($0) }, width: width)
    }

    static func cells(_ e: JournalEntry, showURLs: Bool = false) -> [String] {
        let duration = e.durationSeconds.map { "\(Int($0.rounded()))s" } ?? ""
        let outcome = e.outcomeText + (e.playableClip == nil ? "" : " [clip]")
        // The id is what --play takes; an operator's entry fetched live has none.
        return [e.id > 0 ? String(e.id) : "-", localTime(e.time), e.placeText, e.subjectText, outcome, duration,
                e.picture ?? e.pictureURL.map { showURLs ? $0 : PictureURL.masked($0) } ?? ""]
    }

    /// `--play ENTRY`: the entry's clips that are still on disk, handed to the player (in
    /// intercom-full), or the whole command line handed to intercom-full.
    static func play(_ id: String, _ invocation: Invocation, player: ClipPlayer?) async -> Int32 {
        guard let row = Int64(id), row > 0 else {
            return Console.fail(UsageError(message: "--play takes an entry's id (the ID column of 'intercom log'), not '\(id)'",
                                           command: "log").description, code: ExitCode.usage)
        }
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        let entry: JournalEntry?
        do {
            let journal = try Journal(directory: JournalLocation.directory(config.journal, environment: invocation.environment),
                                      create: false)
            entry = try journal.entry(row)
        } catch {
            return Console.fail(error.description, code: ExitCode.failure)
        }
        guard let entry else { return Console.fail("no journal entry \(row); see the ID column of 'intercom log'", code: ExitCode.dataError) }
        let clips = [entry.ringClip, entry.clip].compactMap { $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        guard !clips.isEmpty else {
            return Console.fail("entry \(row) has no recorded clip (a panel records with record = calls or rings)",
                                code: ExitCode.dataError)
        }
        guard let player else { return handOver(invocation) }
        return await player(clips, invocation)
    }

    /// `YYYY-MM-DD HH:MM:SS` in local time.
    static func localTime(_ date: Date) -> String {
        LocalTime(date).dateAndClock
    }
}
