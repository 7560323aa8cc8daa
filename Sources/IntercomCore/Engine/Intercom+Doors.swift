import Foundation
import IntercomBase
import IntercomPhone

/// What the door openings (`DoorOpeningFlow`) report, and the panel a command names.
extension Intercom {
    /// `owner` is the panel's name or the operator's; `door` a panel's door or an operator door id.
    func reportDoor(owner: String, call: IntercomEvent.CallRef?, door: String, method: String, by trigger: DoorTrigger,
                    error: Error?) {
        if method == "dtmf" { doors.syslog.noteOurDTMF(panel: owner, at: clock.date) }
        if let error { logger.warning("door \(door) of \(owner) did not open by \(method) (\(trigger.rawValue)): \(error)") }
        bus.publish(IntercomEvent(.doorOpened(panel: owner, call: call, door: door, method: method,
                                              by: trigger, ok: error == nil, error: error.map { "\($0)" }),
                                  who: who(opening: trigger)))
    }

    /// The panel a command names, or the only one there is.
    func resolvePanel(_ name: String?) throws(IntercomError) -> PanelConfig { try Doors.resolvePanel(name, in: config) }
}
