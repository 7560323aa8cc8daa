import IntercomBase
import IntercomTerminal

/// What a key press means on the call screen (the keys shown on screen and under `?`).
enum KeyAction: Equatable {
    case command(IntercomCommand)
    case nextCall
    case help
    case journal
    case quit
    case confirmQuit(Bool)
    case redraw
    /// Kiosk: choose the Nth door of the door list (the panels' main doors first, then the
    /// operators'); `o` then opens it. A digit alone never opens a door.
    case selectDoor(index: Int)
    /// `t` in a call: ask for a transfer target.
    case transfer
    /// `T` in a call: attended transfer: ask whom to consult, or hand over to the one who answered.
    case consult
    /// Kiosk: PgUp/PgDn page the tiles, `/` starts the name filter, `v` toggles the list.
    case kiosk(KioskView.Key)
    /// `F`: the operator flat's settings on the message line; `W` (`nextMinutes`) sets `white_rabbit`
    /// to the next of the server's minutes. Both through the settings command `ctl settings` sends.
    case flatSettings(nextMinutes: Bool)

    static let keyEnter: Int32 = 10
    static let keyReturn: Int32 = 13
    static let keyTab: Int32 = 9
    static let keyCtrlL: Int32 = 12

    /// Maps a key to an action for the current screen; nil = ignored.
    /// `dialing`: the shown call is one we placed that has not been accepted yet.
    static func of(key: Int32, inCall: Bool, ringing: Bool, quitAsked: Bool, kiosk: Bool, dialing: Bool = false) -> KeyAction? {
        if kiosk, !quitAsked, key == Curses.Key.pageDown { return .kiosk(.nextPage) }
        if kiosk, !quitAsked, key == Curses.Key.pageUp { return .kiosk(.previousPage) }
        guard let scalar = Unicode.Scalar(UInt32(max(0, key))) else { return nil }
        let c = Character(scalar)
        if quitAsked { return .confirmQuit(c == "y" || c == "Y") }
        if key == keyCtrlL { return .redraw }
        if key == keyTab { return .nextCall }
        if inCall, "0123456789*#".contains(c) { return .command(.dtmf(nil, digits: String(c))) }
        if kiosk, !inCall, let n = c.wholeNumberValue, n >= 1 { return .selectDoor(index: n - 1) }
        if kiosk, c == "/" { return .kiosk(.startFilter) }
        if kiosk, c == "v" { return .kiosk(.toggleList) }
        switch c {
        case "a", "\n", "\r": return ringing && !inCall ? .command(.answer(nil)) : nil
        case "d": return ringing ? .command(.decline(nil)) : nil
        case "h": return inCall || dialing ? .command(.hangup(nil)) : (ringing ? .command(.decline(nil)) : nil)
        // While ringing the intercom answers silently, opens and hangs up (as the SmartYard app does).
        case "o": return .command(.open(panel: nil, door: .main, by: .key))
        case "O": return .command(.open(panel: nil, door: .alt, by: .key))
        case "g": return .command(.open(panel: nil, door: .light, by: .key))
        case "t": return inCall ? .transfer : nil
        case "T": return inCall ? .consult : nil
        case "s": return .command(.speaker(nil))
        case "m": return .command(.mute(nil))
        case "?": return .help
        case "l": return .journal
        case "F": return inCall ? nil : .flatSettings(nextMinutes: false)
        case "W": return inCall ? nil : .flatSettings(nextMinutes: true)
        case "q": return kiosk ? nil : .quit
        case "Q": return .quit
        default: return nil
        }
    }
}
