import Foundation

extension JournalEntry {
    /// Who or what the entry is about, as `intercom log` and the TUI's journal show it.
    public var subjectText: String {
        switch kind {
        case .call: caller ?? ""
        case .door: "door \(detail ?? "?")"
        case .panelEvent: "alarm"
        case .operatorEvent: caller ?? "-"
        case .transfer: "transfer to \(detail ?? "?")"
        }
    }

    /// Where it happened: the panel, or `OPERATOR: DOOR` for an operator's entry.
    public var placeText: String {
        kind == .operatorEvent ? "\(operatorName ?? "?"): \(detail ?? "-")" : panel ?? "-"
    }

    /// What happened, in a few words.
    public var outcomeText: String {
        switch kind {
        case .call where outcome == "answered_elsewhere":
            "answered at another desk"
        case .call where transferredTo != nil:
            "transferred to \(transferredTo ?? "")" + (answeredText.map { " (answered: \($0))" } ?? "")
        case .call:
            (direction == "outgoing" ? "outgoing: " : "")
                + (outcome.map { o in answeredText.map { "\(o) (answered: \($0))" } ?? (missed && o != "missed" ? "missed (\(o))" : o) }
                    ?? "in progress")
                + (handledBy.map { " — handled by \($0)" } ?? callBackFailed.map { " — call back failed: \($0)" } ?? "")
        case .door:
            "opened by \(method ?? "?")" + (openedBy.map { " — \(Self.words(by: $0, who: who))" } ?? "") + (ok == false ? " FAILED\(error.map { ": \($0)" } ?? "")" : "")
                + (sensor.isEmpty ? "" : ", sensor \(sensor.joined(separator: "/"))")
                // The panel's own opening (its syslog): the key's id and the flat it named.
                + (eventDetail?.stringValue.map { " \($0)" } ?? "") + (flat.map { ", flat \($0)" } ?? "")
        case .panelEvent:
            "\(detail ?? "?") \(method ?? "")"
        case .transfer:
            (method.map { "\($0): " } ?? "") + (ok == true ? "done" : "FAILED" + (error.map { ": \($0)" } ?? ""))
        case .operatorEvent:
            outcome ?? event ?? "?"
        }
    }

    /// Who answered: `by`, and the face when it was kept (`user, screen 2 (kiosk, anna)`).
    private var answeredText: String? { answeredBy.map { Self.words(by: $0, who: who) } }

    /// `by` and the face, the face alone where it says the same (`ctl (root)`, not `ctl, ctl (root)`).
    private static func words(by: String, who: FaceIdentity?) -> String {
        guard let who else { return by }
        return who.face.rawValue == by ? who.description : "\(by), \(who)"
    }

    /// The picture worth showing (a file): the one at answer, else the ring picture (an operator
    /// entry: its downloaded preview).
    public var picture: String? { answerPicture ?? firstPicture }
}
