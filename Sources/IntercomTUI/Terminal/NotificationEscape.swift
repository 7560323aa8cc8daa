/// A terminal's own notification escape: the terminal (not a program of ours) shows a desktop
/// notification, so it works over SSH too.
public enum NotificationEscape: String, Sendable, Equatable {
    /// kitty's OSC 99: title and body, focuses the window when clicked, closed by id.
    case kitty = "kitty OSC 99"
    /// `OSC 777;notify;TITLE;BODY`: foot, WezTerm, konsole, VTE with Fedora's patch, rxvt.
    case osc777 = "OSC 777"
    /// `OSC 9;TEXT`: iTerm2, ghostty, Windows Terminal.
    case osc9 = "OSC 9"
}

extension TerminalCapabilities {
    /// The escape this terminal is known to show, from what names it (as the graphics detection
    /// does), and why; nil: the bell only. Inside tmux or screen none: they swallow OSC
    /// notifications (passthrough would need the outer terminal known and tmux's consent).
    public var notificationEscape: (escape: NotificationEscape?, reason: String) {
        let program = environment["TERM_PROGRAM"] ?? ""
        func has(_ key: String) -> Bool { !(environment[key] ?? "").isEmpty }
        if !isTTY { return (nil, "stdout is not a terminal") }
        if inMultiplexer { return (nil, "inside \(inTmux ? "tmux" : "screen"), which passes no notification escape: the bell") }
        if term == "xterm-kitty" || has("KITTY_WINDOW_ID") { return (.kitty, "TERM/KITTY_WINDOW_ID name kitty") }
        if program == "WezTerm" || has("WEZTERM_PANE") { return (.osc777, "TERM_PROGRAM names WezTerm") }
        if term.hasPrefix("foot") { return (.osc777, "TERM names foot") }
        if has("KONSOLE_VERSION") { return (.osc777, "KONSOLE_VERSION names konsole") }
        if program == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" { return (.osc9, "TERM_PROGRAM/LC_TERMINAL name iTerm2") }
        if program == "ghostty" || term == "xterm-ghostty" { return (.osc9, "TERM/TERM_PROGRAM name ghostty") }
        if has("WT_SESSION") { return (.osc9, "WT_SESSION names Windows Terminal") }
        return (nil, "TERM=\(term.isEmpty ? "(unset)" : term) is not known to show a notification escape: the bell")
    }
}
