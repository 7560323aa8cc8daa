import Foundation
import IntercomBase

/// Gets a person's attention when a panel rings: the terminal bell, and the terminal's own
/// notification escape where the terminal is known to show one (`NotificationEscape`) — when
/// the terminal has lost focus (`[notify] terminal = auto`, focus reporting) or always (`on`).
/// The desktop notification with buttons is the engine's (`DesktopNotifier`), not the screen's.
struct Alerts {
    var bell: Bool
    var mode: NotifyMode
    var escape: NotificationEscape?
    /// Until the terminal says otherwise (focus reporting), a screen just started is in front.
    var focused = true

    /// Focus reporting on (`CSI ? 1004 h`): the terminal sends `CSI I` / `CSI O` (`EscapeFilter`).
    static let reportFocus = "\u{1B}[?1004h"
    static let stopFocusReports = "\u{1B}[?1004l"

    /// Whether a ring is posted through the terminal's escape now.
    var posts: Bool {
        guard escape != nil else { return false }
        switch mode {
        case .on: return true
        case .auto: return !focused
        case .off: return false
        }
    }

    func ring(_ write: (String) -> Void) {
        if bell { write("\u{07}") }
    }

    /// Posts the ring of one call; `tag` names it to the terminal (kitty closes it by that name).
    func notifyIncoming(_ title: String, tag: String, _ write: (String) -> Void) {
        guard let escape else { return }
        // The title may be a caller's SIP URI: a BEL or ESC in it would end the OSC early and the
        // rest would be acted on by the terminal.
        let title = TerminalSafe.escape(title)
        let body = "a answers, o opens the door"
        switch escape {
        case .kitty:
            // a=focus: clicking it brings this window forward, where the keys are.
            let shown = mode == .on ? "always" : "unfocused"
            write("\u{1B}]99;i=\(tag):d=0:a=focus:o=\(shown);\(title) is calling\u{1B}\\")
            write("\u{1B}]99;i=\(tag):d=1:p=body;\(body)\u{1B}\\")
        case .osc777:
            // `;` separates the title from the body.
            write("\u{1B}]777;notify;\(title.replacingOccurrences(of: ";", with: ",")) is calling;\(body)\u{1B}\\")
        case .osc9:
            write("\u{1B}]9;\(title) is calling\u{1B}\\")
        }
    }

    /// The call was answered or ended: kitty takes its notification back; the others cannot.
    func close(tag: String, _ write: (String) -> Void) {
        if escape == .kitty { write("\u{1B}]99;i=\(tag):p=close;\u{1B}\\") }
    }
}
