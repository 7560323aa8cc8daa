import Foundation
import IntercomBase
import IntercomOperator

/// `intercom ctl ACTION`: drives a running daemon through its control socket.
public enum CtlCommand {
    public static let spec = CommandSpec(
        name: "ctl",
        maxPositionals: 2 + FlatSettingsRequest.maxChanges,
        options: [
            .value("--door", "DOOR", "open: main (default), alt, light, or an output number"),
            .value("--panel", "PANEL", "open, call, calls, guest, journal: which panel (default: the one in a call, or the only one); "
                   + "open ID takes any id of 'intercom doors' instead (an operator door: home:1:0)"),
            .value("--call", "CALL", "the call to act on, e.g. c1 (default: the obvious one)"),
            .flag("--consult", "transfer: attended: hold the call and call TARGET first"),
            .flag("--complete", "transfer: hand the held call to the answered consultation"),
            .flag("--cancel", "transfer: hang up the consultation and take the call off hold"),
            .value("--by", "WHO", "handled, callback: who deals with the missed call (default: ctl ($USER))"),
            .value("--limit", "N", "journal: the newest N entries (1-1000, default 20)"),
            .value("--operator", "NAME", "duty: who is on duty at this desk (default: the one there is)"),
            .flag("--unhandled", "journal: only missed calls nobody has dealt with yet"),
            .value("--flat", "ID", "settings: the flat (its id, or its number) when the login has several"),
            .flag("--json", "print the reply's JSON even on a terminal (piped output is always JSON)"),
            .value("--socket", "PATH", "control socket (default: [daemon] socket of the config)"),
            .value("--timeout", "SECONDS", "give up when the daemon has not answered within this long (default 5; callback: 45)"),
        ],
        details: """
        On a terminal prints a short summary (status as tables: panels, calls, screens attached,
        operators; a command as one sentence); piped, or with --json, prints the reply's data as
        JSON. `events` streams one JSON object per line until the daemon stops or Ctrl-C (the
        timeout covers only its first line). No daemon listening, no answer within the timeout, or
        a socket served by another user exits 69; a refused command exits 1, or the code the daemon
        gives. `callback` waits up to 30 s for someone to answer: only then is the missed call
        handled; busy, refused or unanswered, it exits 69 with why, and the entry stays in
        `intercom log --unhandled` with the reason. `guest` takes UNTIL as `share --until` does: 2h,
        30m, 20:00 (today, or tomorrow once past), tomorrow 08:00, YYYY-MM-DD HH:MM or RFC 3339.
        `settings` shows or changes an operator's flat settings through the daemon, with the keys
        and values of `intercom settings` (white_rabbit=5, auto_open=1d, hidden_plog=on…).
        """,
        actions: [
            CommandAction("status"), CommandAction("answer", "[CALL]"), CommandAction("decline", "[CALL]"),
            CommandAction("hangup", "[CALL]"), CommandAction("open", "[ID]"), CommandAction("dtmf", "DIGITS"),
            CommandAction("mute", "[on|off]"), CommandAction("speaker", "[on|off]"), CommandAction("call", "[PANEL]"),
            CommandAction("transfer", "TARGET|--consult TARGET|--complete|--cancel"), CommandAction("calls", "on|off"), CommandAction("guest", "UNTIL|off"),
            CommandAction("handled", "ENTRY"), CommandAction("callback", "ENTRY"), CommandAction("doors"),
            CommandAction("site"), CommandAction("duty", "on|off"),
            CommandAction("journal"), CommandAction("events", "[CALL]"), CommandAction("settings", "OPERATOR [KEY=VALUE ...]"),
        ],
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        let request: ControlRequest
        switch makeRequest(args) {
        case .success(let made): request = made
        case .failure(let error): return Console.fail(error.description, code: ExitCode.usage)
        }
        // A call back waits for its callee to answer (or not): the ring time and a margin.
        var callsBack = false
        if case .command(.callBack) = request.action { callsBack = true }
        let timeoutText = args.value("--timeout") ?? (callsBack ? "\(Int(IntercomCommand.callBackRingSeconds) + 15)" : "5")
        guard let seconds = Double(timeoutText), seconds > 0, seconds <= 86_400 else {
            return Console.fail(UsageError(message: "--timeout takes seconds, e.g. 5 or 0.5, not '\(timeoutText)'",
                                           command: "ctl").description, code: ExitCode.usage)
        }
        let timeout = Duration.milliseconds(Int64((seconds * 1000).rounded(.up)))
        let path: String
        if let explicit = args.value("--socket") {
            path = explicit
        } else {
            do {
                path = try invocation.loadConfig().daemon.socketPath
            } catch {
                return Console.fail(error.description, code: error.exitCode)
            }
        }
        do throws(ControlError) {
            let client = try ControlClient(path: path, timeout: timeout)
            if case .events = request.action {
                // The state line proves the daemon answers; events may then be hours apart.
                try client.send(request)
                guard let first = try client.readLine(until: ContinuousClock.now.advanced(by: timeout)) else {
                    throw ControlError.closed
                }
                Console.out(first)
                // A reader that left (`ctl events | head -1`) ends the stream.
                while let line = client.readLine() {
                    if StandardStream.output.write(line: line) == EPIPE { break }
                }
                return ExitCode.ok
            }
            // A person reads the summary; a script (a pipe, or --json) gets the JSON it always got.
            let human = !args.has("--json") && isatty(STDOUT_FILENO) == 1
            // The calls as they were before the command, so the sentence can name a call's panel.
            var before: JSONValue?
            if human && CtlSummary.namesCall(request.action) {
                before = try client.request(ControlRequest(id: .integer(0), action: .command(.status)))["data"]
            }
            let reply = try client.request(request)
            guard reply["ok"] == .bool(true) else {
                // Console.fail makes the daemon's text (which may quote a panel) terminal-safe.
                // The engine's exit code when it sent one (a call back that reached nobody: 69).
                var code = ExitCode.failure
                if case .integer(let sent)? = reply["code"], let known = Int32(exactly: sent), known > 0 { code = known }
                return Console.fail(reply["error"]?.stringValue ?? "the daemon refused the command", code: code)
            }
            let data = reply["data"] ?? .null
            if human, case .command(let command) = request.action {
                Console.out(CtlSummary.text(command, data: data, before: before))
            } else {
                Console.out(request.action == .command(.status) ? data.pretty : data.encoded)
            }
            return ExitCode.ok
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
    }

    static func makeRequest(_ args: ParsedArguments) -> Result<ControlRequest, UsageError> {
        var words = args.positionals
        guard !words.isEmpty else {
            return .failure(UsageError(message: "ctl needs an action: status, answer, decline, hangup, open, dtmf, mute, speaker, call, transfer, calls, guest, handled, callback, doors, site, duty, journal, events or settings",
                                       command: "ctl"))
        }
        let action = words.removeFirst()
        func call() -> CallID? { (args.value("--call") ?? words.first).map(CallID.init) }
        func extra(_ allowed: Int) -> UsageError? {
            words.count > allowed ? UsageError(message: "unexpected argument '\(words[allowed])' for 'intercom ctl \(action)'",
                                               command: "ctl") : nil
        }
        let id = JSONValue.integer(1)
        switch action {
        case "status":
            if let e = extra(0) { return .failure(e) }
            return .success(ControlRequest(id: id, action: .command(.status)))
        case "answer", "decline", "hangup":
            if let e = extra(1) { return .failure(e) }
            let command: IntercomCommand = action == "answer" ? .answer(call()) : action == "decline" ? .decline(call()) : .hangup(call())
            return .success(ControlRequest(id: id, action: .command(command)))
        case "open":
            if let e = extra(1) { return .failure(e) }
            if words.first != nil, args.value("--panel") != nil {
                return .failure(UsageError(message: "give the door as ID or as --panel, not both", command: "ctl"))
            }
            let text = args.value("--door") ?? "main"
            guard let door = Door(text) else {
                return .failure(UsageError(message: "--door takes main, alt, light or a number, not '\(text)'", command: "ctl"))
            }
            // Run by a hook (which gets INTERCOM_EVENT), the opening is an automatic one.
            let trigger: DoorTrigger = ProcessInfo.processInfo.environment["INTERCOM_EVENT"] == nil ? .ctl : .hook
            let target = words.first ?? args.value("--panel")
            return .success(ControlRequest(id: id, action: .command(.open(panel: target, door: door, by: trigger))))
        case "dtmf":
            guard let digits = words.first else {
                return .failure(UsageError(message: "ctl dtmf needs the digits, e.g. 'intercom ctl dtmf 1'", command: "ctl"))
            }
            if let e = extra(1) { return .failure(e) }
            return .success(ControlRequest(id: id, action: .command(.dtmf(args.value("--call").map(CallID.init), digits: digits))))
        case "mute", "speaker":
            if let e = extra(1) { return .failure(e) }
            var wanted: Bool?
            if let word = words.first {
                guard word == "on" || word == "off" else {
                    return .failure(UsageError(message: "ctl \(action) takes on, off or nothing (toggle), not '\(word)'", command: "ctl"))
                }
                wanted = word == "on"
            }
            return .success(ControlRequest(id: id, action: .command(action == "mute" ? .mute(wanted) : .speaker(wanted))))
        case "call":
            if let e = extra(1) { return .failure(e) }
            return .success(ControlRequest(id: id, action: .command(.call(panel: args.value("--panel") ?? words.first))))
        case "transfer":
            let call = args.value("--call").map(CallID.init)
            let steps = ["--consult", "--complete", "--cancel"].filter { args.has($0) }
            guard steps.count <= 1 else {
                return .failure(UsageError(message: "ctl transfer takes one of --consult, --complete and --cancel", command: "ctl"))
            }
            if steps.first == "--complete" || steps.first == "--cancel" {
                if let e = extra(0) { return .failure(e) }
                return .success(ControlRequest(id: id, action: .command(.attendedTransfer(call, step: steps.first == "--complete" ? .complete : .cancel))))
            }
            guard let target = words.first else {
                return .failure(UsageError(message: "ctl transfer needs a target: a [directory] name or a sip: URI, e.g. 'intercom ctl transfer flat12'",
                                           command: "ctl"))
            }
            if let e = extra(1) { return .failure(e) }
            return .success(ControlRequest(id: id, action: .command(
                steps.isEmpty ? .transfer(call, target: target) : .attendedTransfer(call, step: .consult(target: target)))))
        case "calls":
            if let e = extra(1) { return .failure(e) }
            guard let word = words.first, word == "on" || word == "off" else {
                return .failure(UsageError(message: "ctl calls takes on or off (off = do not disturb)", command: "ctl"))
            }
            return .success(ControlRequest(id: id, action: .command(.setCalls(panel: args.value("--panel"), on: word == "on"))))
        case "guest":
            if let e = extra(words.first == "off" ? 1 : 2) { return .failure(e) }
            guard let word = words.first else {
                return .failure(UsageError(message: "ctl guest takes an end (\(UntilTimeParser.forms)) or off", command: "ctl"))
            }
            var until: Date?
            if word != "off" {
                // `tomorrow 08:00` comes as one word when quoted, as two when not.
                let text = words.joined(separator: " ")
                let now = Date()
                do {
                    until = try UntilTimeParser.parse(text, now: now)
                } catch {
                    let fix = error.fix ?? "write \(UntilTimeParser.forms)"
                    return .failure(UsageError(message: "ctl guest: \(error.message); \(fix)", command: "ctl"))
                }
                if let until, until <= now {
                    return .failure(UsageError(message: "ctl guest: '\(text)' is in the past; give a later end, or off", command: "ctl"))
                }
            }
            return .success(ControlRequest(id: id, action: .command(.setGuest(panel: args.value("--panel"), until: until))))
        case "handled", "callback":
            if let e = extra(1) { return .failure(e) }
            guard let word = words.first, let entry = Int64(word), entry > 0 else {
                return .failure(UsageError(message: "ctl \(action) needs a missed call's id (the \"id\" of 'intercom log --unhandled --json'), e.g. 'intercom ctl \(action) 42'",
                                           command: "ctl"))
            }
            let who = args.value("--by") ?? "ctl (\(ProcessInfo.processInfo.environment["USER"] ?? "unknown"))"
            return .success(ControlRequest(id: id, action: .command(action == "handled" ? .handled(entry: entry, by: who) : .callBack(entry: entry, by: who))))
        case "doors":
            if let e = extra(0) { return .failure(e) }
            return .success(ControlRequest(id: id, action: .command(.doors)))
        case "site":
            if let e = extra(0) { return .failure(e) }
            return .success(ControlRequest(id: id, action: .command(.siteDesks)))
        case "duty":
            if let e = extra(1) { return .failure(e) }
            guard let word = words.first, word == "on" || word == "off" else {
                return .failure(UsageError(message: "ctl duty takes on or off, e.g. 'intercom ctl duty on --operator anna'", command: "ctl"))
            }
            return .success(ControlRequest(id: id, action: .command(.duty(on: word == "on", operator: args.value("--operator")))))
        case "journal":
            if let e = extra(0) { return .failure(e) }
            var query = JournalQuery(panel: args.value("--panel"), limit: JournalRequestFields.defaultLimit, unhandledOnly: args.has("--unhandled"))
            if let text = args.value("--limit") {
                guard let n = Int(text), (1...JournalRequestFields.maxLimit).contains(n) else {
                    return .failure(UsageError(message: "--limit takes a number of entries from 1 to \(JournalRequestFields.maxLimit), not '\(text)'",
                                               command: "ctl"))
                }
                query.limit = n
            }
            return .success(ControlRequest(id: id, action: .command(.journal(query))))
        case "events":
            if let e = extra(1) { return .failure(e) }
            return .success(ControlRequest(id: id, action: .events(call: call())))
        case "settings":
            return settingsRequest(words, flat: args.value("--flat")).map { ControlRequest(id: id, action: .command(.flatSettings($0))) }
        default:
            return .failure(UsageError(message: "unknown ctl action '\(action)'; use status, answer, decline, hangup, open, dtmf, mute, speaker, call, transfer, calls, guest, handled, callback, doors, journal, events or settings",
                                       command: "ctl"))
        }
    }

    /// `ctl settings OPERATOR [KEY=VALUE ...]`: each change checked here as `intercom settings` checks
    /// it (the daemon checks again), so a typo is a usage error before the daemon is asked.
    static func settingsRequest(_ words: [String], flat: String?) -> Result<FlatSettingsRequest, UsageError> {
        guard let name = words.first, !name.contains("=") else {
            return .failure(UsageError(message: "ctl settings needs the operator's name first, e.g. 'intercom ctl settings yard white_rabbit=5'",
                                       command: "ctl"))
        }
        let changes = Array(words.dropFirst())
        for text in changes {
            if case .failure(let invalid) = FlatSettingChange.parse(text) {
                return .failure(UsageError(message: "ctl settings: \(invalid.description)", command: "ctl"))
            }
        }
        return .success(FlatSettingsRequest(operatorName: name, flat: flat, changes: changes))
    }
}
