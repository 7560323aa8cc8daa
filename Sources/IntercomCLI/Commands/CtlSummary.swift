import Foundation
import IntercomBase

/// What `intercom ctl` prints for a person at a terminal: `status`, `doors` and `journal` as
/// tables, every other command as one sentence ("door main of porch opened", "answered porch
/// (c1)"). Built from the reply's JSON alone, the same data a pipe gets. Panel names, callers and
/// operators' words come from outside: table cells and sentence fields are made terminal-safe.
enum CtlSummary {
    /// Commands whose sentence names the call's panel, which their reply leaves out: `ctl` reads
    /// `status` just before them, while the call is still listed.
    static func namesCall(_ action: ControlRequest.Action) -> Bool {
        guard case .command(let command) = action else { return false }
        switch command {
        case .answer, .decline, .hangup, .dtmf, .transfer, .attendedTransfer: return true
        default: return false
        }
    }

    /// The summary of `command`'s reply `data`; `before` is the state read just before it (if any).
    static func text(_ command: IntercomCommand, data: JSONValue, before: JSONValue? = nil) -> String {
        func field(_ key: String) -> String { TerminalSafe.escape(data[key]?.stringValue ?? "?") }
        let call = callName(data["call"]?.stringValue, in: before)
        switch command {
        case .status: return status(data)
        case .doors: return doors(data)
        case .siteDesks: return desks(data)
        case .duty:
            return "\(field("desk")): " + (data["on_duty"]?.boolValue == true ? "on duty" : "off duty")
                + (data["operator"]?.stringValue.map { " (\(TerminalSafe.escape($0)))" } ?? "")
        case .journal: return journal(data)
        case .answer: return "answered \(call)"
        case .decline: return "declined \(call)"
        case .hangup: return "hung up \(call)"
        case .dtmf: return "sent DTMF \(field("digits")) to \(call)"
        case .mute: return data["muted"]?.boolValue == true ? "microphone muted" : "microphone on"
        case .speaker:
            return (data["speaker"]?.boolValue == true ? "call sound on the speaker" : "call sound on playback")
                + " (device \(field("device")))"
        case .open: return opened(data)
        case .call: return "calling \(field("panel")) (\(field("call")), \(field("to")))"
        case .transfer:
            let target = data["target"]?.stringValue.map { "\(TerminalSafe.escape($0)) (\(field("to")))" } ?? field("to")
            return "transferred \(call) to \(target)"
        case .attendedTransfer(_, let step):
            let target = data["target"]?.stringValue.map { "\(TerminalSafe.escape($0)) (\(field("to")))" } ?? field("to")
            switch step {
            case .consult: return "\(call) on hold; calling \(target) (\(field("consult_call")))"
            case .complete: return "handing \(call) to \(target)"
            case .cancel: return "consultation ended; \(call) is off hold"
            }
        case .setCalls:
            return "\(field("panel")): calls " + (data["calls"]?.boolValue == true ? "on" : "off (do not disturb)")
                + (data["calls"]?.boolValue == false && data["guest_until"]?.stringValue != nil ? Self.dndWins : "")
        case .setGuest:
            return "\(field("panel")): guest mode " + (data["guest_until"]?.stringValue.flatMap(RFC3339.date).map { "until \(localMinute($0))" } ?? "off")
                + (data["calls"]?.boolValue == false && data["guest_until"]?.stringValue != nil ? Self.dndWins : "")
        case .handled:
            return "missed call \(entryNumber(data)) handled by \(TerminalSafe.escape(data["handled_by"]?.stringValue ?? "?"))"
        case .callBack:
            return "\(field("panel")) answered the call back (\(field("call"))); missed call \(entryNumber(data["entry"] ?? .null)) handled"
        // A screen's subscriptions, which end with ctl's connection: no ctl subcommand sends them.
        case .watch: return "watching \(list(data["panels"]).compactMap(\.stringValue).map(TerminalSafe.escape).joined(separator: ", "))"
        case .watchCamera: return "watching camera \(field("camera"))"
        case .picture(_, let panel, let want):
            return want.map { "picture of \(TerminalSafe.escape(panel)) at \($0)" } ?? "no picture of \(TerminalSafe.escape(panel))"
        case .unwatch: return "watching nothing"
        // `intercom share` sends these and says its own sentence; no ctl subcommand does.
        case .shareExpiry(.keep): return "the access of +\(field("phone")) to flat \(field("flat")) ends at \(field("until"))"
        case .shareExpiry(.forget):
            return data["forgotten"]?.boolValue == true ? "the end of the access is forgotten" : "no end of that access was kept"
        case .flatSettings: return SettingsCommand.text(data)
        case .reload: return "config reloaded"
        }
    }

    /// `porch (c1)`: the call with its panel (or caller) as `before` listed it; the bare id otherwise.
    static func callName(_ id: String?, in before: JSONValue?) -> String {
        guard let id else { return "the call" }
        let listed = list(before?["calls"]).first { $0["call"]?.stringValue == id }
        guard let who = listed?["panel"]?.stringValue ?? listed?["from"]?.stringValue else { return TerminalSafe.escape(id) }
        return "\(TerminalSafe.escape(who)) (\(TerminalSafe.escape(id)))"
    }

    /// `door main of porch opened (http)`; an operator's door is only ever accepted, never seen to open.
    static func opened(_ data: JSONValue) -> String {
        let attempts = list(data["attempts"])
        let worked = attempts.filter { $0["ok"]?.boolValue == true }.compactMap { $0["method"]?.stringValue }
        let failed = attempts.filter { $0["ok"]?.boolValue == false }.map {
            "\($0["method"]?.stringValue ?? "?") failed: \($0["error"]?.stringValue ?? "?")"
        }
        let door = TerminalSafe.escape(data["door"]?.stringValue ?? "?")
        if let op = data["operator"]?.stringValue {
            return "open request for \(door) accepted by \(TerminalSafe.escape(op)) (the operator does not report whether the door opened)"
        }
        let how = (worked.isEmpty ? [] : [worked.joined(separator: ", ")]) + failed.map(TerminalSafe.escape)
        return "door \(door) of \(TerminalSafe.escape(data["panel"]?.stringValue ?? "?")) opened"
            + (how.isEmpty ? "" : " (\(how.joined(separator: "; ")))")
    }

    /// Do-not-disturb is checked before guest mode: a declined call is never answered for a guest.
    static let dndWins = "; but calls are off (do not disturb wins: guests' calls are declined; 'intercom ctl calls on' lets them in)"

    /// The state as tables: panels (what each is doing, its switches), calls, screens attached,
    /// operators, then the sound and registration in a line.
    static func status(_ data: JSONValue) -> String {
        let status = IntercomStatus(json: data)
        var panels = [["PANEL", "NOW", "CALLS", "GUEST MODE"]]
        for panel in status.panels {
            let now = status.calls.filter { $0.panel == panel.name }.map { "\($0.state.rawValue) \($0.call.rawValue)" }
            panels.append([panel.name, now.isEmpty ? "idle" : now.joined(separator: ", "),
                           panel.calls ? "on" : "off (do not disturb)",
                           !panel.guestMode ? "off" : panel.calls ? "on" : "on, but do not disturb wins"])
        }
        var blocks = [panels.count > 1 ? TextTable.render(panels) : "no panel configured"]
        blocks.append(status.calls.isEmpty ? "no calls" : TextTable.render([["CALL", "PANEL", "STATE", "FROM", "SINCE"]] + status.calls.map {
            [$0.call.rawValue, $0.panel ?? "-", $0.state.rawValue, $0.from, LocalTime($0.since).clock]
        }))
        let screens = list(data["screens"])
        blocks.append(screens.isEmpty ? "no screens attached" : TextTable.render([["SCREEN", "ID", "PID", "ATTACHED"]] + screens.map {
            [$0["name"]?.stringValue ?? "?", number($0["id"]), number($0["pid"]), clock($0["since"])]
        }))
        if !status.operators.isEmpty {
            blocks.append(TextTable.render([["OPERATOR", "UNREAD"]] + status.operators.map { [$0.name, $0.unread.map(String.init) ?? "-"] }))
        }
        var line = (status.muted ? "microphone muted" : "microphone on")
            + "; call sound on " + (status.speaker ? "the speaker" : "playback")
        if let registration = status.registration {
            line += "; \(TerminalSafe.escape(registration.account)) " + TerminalSafe.escape(registration.state)
                + (registration.reason.map { " (\(TerminalSafe.escape($0)))" } ?? "")
        }
        blocks.append(line)
        return blocks.joined(separator: "\n\n")
    }

    /// The doors as `intercom doors` lays them out: the id `ctl open` takes first.
    static func doors(_ data: JSONValue) -> String {
        let doors = list(data)
        guard !doors.isEmpty else { return "no doors: no panel configured and no operator door known yet" }
        return TextTable.render([["ID", "NAME", "SOURCE", "ADDRESS"]] + doors.map {
            [$0["id"]?.stringValue ?? "?", $0["name"]?.stringValue ?? "",
             $0["source"]?.stringValue ?? "", ($0["address"]?.stringValue ?? "") + ($0["blocked"]?.stringValue.map { " (blocked: \($0))" } ?? "")]
        })
    }

    /// `ctl site`: the site's desks, and a line when no online desk is on duty.
    static func desks(_ data: JSONValue) -> String {
        let desks = list(data["desks"])
        guard !desks.isEmpty else { return "no desk has joined the site yet" }
        let table = TextTable.render([["DESK", "ONLINE", "DUTY", "OPERATOR", "CALL", "LAST SEEN"]] + desks.map {
            [$0["desk"]?.stringValue ?? "?", $0["online"]?.boolValue == true ? "online" : "offline",
             $0["on_duty"]?.boolValue == true ? "on duty" : "off duty", $0["operator"]?.stringValue ?? "",
             $0["current_call"]?.stringValue ?? "", $0["last_seen"]?.stringValue.flatMap(RFC3339.date).map(localMinute) ?? ""]
        })
        return table + (data["nobody_on_duty"]?.boolValue == true ? "\nno desk online is on duty: rings reach nobody who answers" : "")
    }

    /// The entries as `intercom log` prints them.
    static func journal(_ data: JSONValue) -> String {
        let entries = list(data).compactMap(JournalEntry.init(json:))
        return entries.isEmpty ? "no journal entries" : LogCommand.table(entries)
    }

    private static func list(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { items } else { [] }
    }

    private static func number(_ value: JSONValue?) -> String {
        if case .integer(let n)? = value { String(n) } else { "-" }
    }

    private static func entryNumber(_ entry: JSONValue) -> String { number(entry["id"]) }

    /// An RFC 3339 time as the local `HH:MM:SS`.
    private static func clock(_ value: JSONValue?) -> String {
        value?.stringValue.flatMap(RFC3339.date).map { LocalTime($0).clock } ?? ""
    }

    static func localMinute(_ date: Date) -> String {
        let local = LocalTime(date)
        return local.date + " " + String(local.clock.prefix(5))
    }
}
