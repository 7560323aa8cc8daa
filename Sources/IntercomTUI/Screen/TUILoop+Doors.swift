import Foundation
import IntercomBase

/// The doors a screen offers (`o`, the kiosk's numbers, the idle screen's list) come from the
/// `doors` command, as `ctl doors` has them, on a screen of its own engine as on an attached one.
extension TUILoop {
    /// How often the list is asked again: operators' doors come once the engine has asked the
    /// operators (after start, then every few minutes), and a command is no lock to read each turn.
    static let doorRefresh: TimeInterval = 10

    /// The list the screen opened with: the first turn shows it without asking again.
    func takeFirstDoors() {
        guard !context.doors.isEmpty else { return }
        model.updateDoors(context.doors)
        doorsAsked = Date()
    }

    /// Asks for the door list on the first turn and every `doorRefresh` after; the reply comes
    /// through the inbox (`Inbox.Item.doors`). A failure keeps the list the screen has.
    func askDoorsIfDue(now: Date = Date()) {
        if let asked = doorsAsked, now.timeIntervalSince(asked) < Self.doorRefresh { return }
        doorsAsked = now
        let intercom = context.intercom, inbox = context.inbox
        context.commands.start {
            guard case .array(let list)? = try? await intercom.execute(.doors) else { return }
            inbox.post(.doors(list.compactMap(DoorListing.init(json:))))
        }
    }
}
