/// What an entry of the operator's event log says happened (`event` 1…9; there is no 8).
public enum PlogEvent: Int, Sendable, CaseIterable {
    case callMissed = 1
    case callAnswered = 2
    case openedByKey = 3
    case openedByApp = 4
    case openedByFace = 5
    case openedByCode = 6
    case gateByCall = 7
    case openedByPlate = 9

    /// The name in `intercom log --json` (`event`).
    public var name: String {
        switch self {
        case .callMissed: "call_missed"
        case .callAnswered: "call_answered"
        case .openedByKey: "opened_by_key"
        case .openedByApp: "opened_by_app"
        case .openedByFace: "opened_by_face"
        case .openedByCode: "opened_by_code"
        case .gateByCall: "gate_by_call"
        case .openedByPlate: "opened_by_plate"
        }
    }

    /// The words in `intercom log`'s table.
    public var text: String {
        switch self {
        case .callMissed: "missed call"
        case .callAnswered: "answered call"
        case .openedByKey: "opened by key"
        case .openedByApp: "opened by app"
        case .openedByFace: "opened by face"
        case .openedByCode: "opened by code"
        case .gateByCall: "gate opened by call"
        case .openedByPlate: "opened by plate"
        }
    }
}
