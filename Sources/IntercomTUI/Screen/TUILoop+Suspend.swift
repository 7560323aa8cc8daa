import Glibc
import IntercomTerminal

/// Ctrl-Z (`SuspendSignal`): the terminal as the shell had it while the process is stopped, the
/// screen's own again after `fg`.
extension TUILoop {
    /// What the screen asks of the terminal while it is open, in the order it asks: bracketed paste
    /// (pastes are text, never keys), and focus reports where `[notify] terminal = auto` needs them.
    var terminalModes: [(on: String, off: String)] {
        [(BracketedPaste.on, BracketedPaste.off)] + (focusReports ? [(Alerts.reportFocus, Alerts.stopFocusReports)] : [])
    }

    func askTerminalModes() { for mode in terminalModes { writeRaw(mode.on) } }
    func dropTerminalModes() { for mode in terminalModes.reversed() { writeRaw(mode.off) } }

    /// Stops the process here until it is continued, with the terminal put back meanwhile; then
    /// everything is drawn again (the shell wrote over the screen).
    func suspend() {
        dropTerminalModes()
        pictures.erase()
        curses.end()
        kill(getpid(), SIGSTOP)
        askTerminalModes()
        curses.invalidate()
        resetPictures()
    }
}
