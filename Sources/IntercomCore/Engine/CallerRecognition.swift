import Foundation
import IntercomBase
import IntercomPhone

/// Who a call is from, by its packets' source, then `match`: its panel, or an operator's door
/// (through the registrar); neither for a stranger that may ring. A refused caller (an impostor;
/// a stranger under `unknown_callers = reject`) is one log line every 10 s at most: an exposed SIP
/// port is scanned constantly, so no event, no journal entry.
struct CallerRecognition {
    /// Who rings: the panel or operator door, else nothing (a stranger); or refused.
    struct Caller {
        var refused = false
        var panel: PanelConfig?
        var operatorDoor: DoorListing?
        /// An operator's panel that no logged-in operator lists (yet): the doors want a refresh.
        var unlistedOperatorPanel = false
    }

    private var refused = RefusedCallerLog()

    /// The caller of `info`. An operator's door comes from the cached list only: a ringing call
    /// never waits on the operator's API.
    mutating func recognise(_ info: CallInfo, gate: CallerGate, config: IntercomConfig, operatorDoors: OperatorDoorDirectory,
                            logger: Logger) -> Caller {
        var verdict = gate.identify(from: info.from, contactHost: info.remoteHost, source: info.source)
        var caller = Caller()
        if case .panel(let name, _) = verdict { caller.panel = config.panel(named: name) }
        if case .operatorPanel(let domophone) = verdict {
            caller.operatorDoor = operatorDoors.door(domophoneId: domophone)
            if caller.operatorDoor == nil {
                logger.notice("call \(info.id) from operator panel \(domophone) (through the registrar): no logged-in operator lists that panel; treated as an unknown caller")
                caller.unlistedOperatorPanel = true
                verdict = .stranger
            }
        }
        if caller.panel == nil && caller.operatorDoor == nil && gate.refuses(verdict) {
            refused.note(verdict, from: info.from, source: info.source, logger: logger)
            caller.refused = true
        }
        return caller
    }
}
