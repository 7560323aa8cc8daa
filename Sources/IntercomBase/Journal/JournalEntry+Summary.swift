import Foundation

extension JournalEntry {
    /// Who or what the entry is about, as `intercom log` and the TUI's journal show it.
    public var subjectText: String {
        switch kind {
        case .call: caller ?? ""
        case .door: "door \(detail ?? "?")"
        case .panelEvent: "alarm"
        }
    }

    /// What happened, in a few words.
    public var outcomeText: String {
        switch kind {
        case .call:
            outcome.map { o in answeredBy.map { "\(o) (answered: \($0))" } ?? (missed && o != "missed" ? "missed (\(o))" : o) }
                ?? "in progress"
        case .door:
            "opened by \(method ?? "?")" + (openedBy.map { " (\($0))" } ?? "") + (ok == false ? " FAILED\(error.map { ": \($0)" } ?? "")" : "")
        case .panelEvent:
            "\(detail ?? "?") \(method ?? "")"
        }
    }

    /// The picture worth showing: the one at answer, else the ring picture.
    public var picture: String? { answerPicture ?? firstPicture }
}
