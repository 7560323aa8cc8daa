import Foundation
import IntercomBase

/// One line of the text beside the picture, as what it says and how it is drawn. Worked out
/// before anything is drawn, so the layout can give the text the columns it needs.
struct InfoLine: Equatable {
    enum Style: Equatable { case normal, heading, dim, warn, ok, ringing, selected }
    var text: String
    var style: Style
    /// What ends the line and is never cut when it is shortened (a journal line's ` [clip 12]`, which
    /// Enter plays): the text before it is shortened instead.
    var mark: String
    init(_ text: String, _ style: Style = .normal, mark: String = "") {
        self.text = text
        self.style = style
        self.mark = mark
    }

    /// The line in at most `width` characters, its mark whole.
    func fitted(_ width: Int) -> String { TextFit.ellipsize(text, width, keeping: mark) }
}

extension ScreenModel {
    /// The call screen's text (the shown call and the queue), the journal's list (`height` rows
    /// of it), or the idle screen's: the last visitor, the doors, the recent events.
    func infoLines(now: Date, height: Int) -> [InfoLine] {
        if let call = selectedCall { return callLines(call, now: now) }
        if let journal {
            let first = journal.unhandled > 0 ? ": \(MissedCalls.phrase(journal.unhandled)) first" : ""
            var lines = [InfoLine("Journal\(first)", .heading)]
            if let problem = journal.problem { lines.append(InfoLine(problem, .dim)) }
            for (entry, selected) in journal.window(height: max(0, height - lines.count)) {
                let line = JournalBrowser.parts(entry)
                lines.append(InfoLine(line.text, selected ? .selected : .normal, mark: line.mark))
            }
            return lines
        }
        var lines: [InfoLine] = []
        if missed.count > 0 {
            lines += [InfoLine("\(missed.phrase) to return: l lists them first", .warn), InfoLine("")]
        }
        if muted {
            lines += [InfoLine("microphone muted: the next call starts muted (m unmutes)", .warn), InfoLine("")]
        }
        if let visitor = lastVisitor {
            lines += [InfoLine("Last visitor (the picture)", .heading), InfoLine("  \(JournalBrowser.line(visitor.entry))", .dim),
                      InfoLine("")]
        }
        lines.append(InfoLine("Doors", .heading))
        for door in doors {
            let down = door.source == .panel && unreachable.contains(door.owner)
            let chosen = door.id == chosenDoor
            let detail = door.source == .operator
                ? " \(door.id) — \(door.owner)\(door.address.map { ": \($0)" } ?? "")\(door.blocked.map { " (blocked: \($0))" } ?? "")"
                : (down ? " — unreachable" : policyWords(door.owner, now: now).map { " — \($0)" } ?? "")
            let number = doors.count > 1 ? "\((doors.firstIndex(of: door) ?? 0) + 1). " : ""
            let left = chosen ? pickLeft(now: now).map { " (\($0) s)" } ?? "" : ""
            lines.append(InfoLine("\(chosen ? Self.selectedMark : " ") \(number)\(Self.title(door))\(detail)\(left)",
                                  chosen ? .selected : down ? .warn : door.blocked != nil ? .dim : .normal))
        }
        if doors.isEmpty {
            // No panel and no operator: the first run, or a config with nothing in it.
            lines += [InfoLine("  none configured", .dim), InfoLine("  \(FirstRunHint.text)", .warn)]
        }
        lines += [InfoLine(""), InfoLine("Recent", .heading)]
        lines += recent.map { InfoLine("  \($0)", .dim) }
        return lines
    }

    private func callLines(_ call: CallView, now: Date) -> [InfoLine] {
        let seconds = now.timeIntervalSince(call.since)
        var lines: [InfoLine]
        switch call.stage {
        case .ringing:
            lines = [InfoLine(" \(call.title) is calling ".uppercased(), .ringing), InfoLine("ringing \(Self.duration(seconds))")]
        case .dialing:
            lines = [InfoLine("Calling \(call.title)…", .ok), InfoLine(Self.duration(seconds))]
        case .active where call.held:
            lines = [InfoLine("\(call.title) on hold", .warn), InfoLine("\(Self.duration(seconds))  Tab: the other call")]
        case .active:
            lines = [InfoLine("In call with \(call.title)", .ok),
                     InfoLine("\(Self.duration(seconds))  mic \(muted ? "muted" : "on")  speaker \(speaker ? "on" : "off")"),
                     // In a call the digits are the caller's: say so, as the kiosk's digits choose doors.
                     InfoLine("keys 0-9 * # are DTMF to \(call.title)", .dim)]
            if let elsewhere = call.answeredElsewhere { lines.insert(InfoLine(elsewhere, .dim), at: 1) }
        }
        lines.append(InfoLine(call.from, .dim))
        if calls.count > 1 {
            lines += [InfoLine(""), InfoLine("Calls (Tab: next)", .heading)]
            for other in calls {
                let mine = other.id == call.id
                lines.append(InfoLine("\(mine ? Self.selectedMark : " ") \(other.title) — \(other.state(now: now))", mine ? .selected : .normal))
            }
        }
        return lines
    }

    /// The columns the longest info line takes (the layout shares the width by it).
    static func need(_ lines: [InfoLine]) -> Int {
        lines.map { $0.text.count + $0.mark.count }.max() ?? 0
    }
}
