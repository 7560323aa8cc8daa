import Dispatch
import Glibc

/// Ctrl-Z while the screen is open. ncurses' own SIGTSTP handler put its screen away and back but
/// knew nothing of the modes the screen had asked of the terminal (bracketed paste, focus reports):
/// the shell got a terminal that still marked pastes, and after `fg` the screen got one that no
/// longer did (the shell turns bracketed paste off before it runs a command), so pastes were keys
/// again. The screen takes the signal itself instead: it becomes an inbox item, and the screen's
/// loop puts the terminal back, stops the process and takes the terminal again (`TUILoop.suspend`).
/// Made before ncurses starts (it installs its handler only over the default one), cancelled with
/// the screen, which then leaves SIGTSTP to its default.
final class SuspendSignal {
    private let source: any DispatchSourceSignal

    init(inbox: Inbox) {
        signal(SIGTSTP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
        source.setEventHandler { inbox.post(.suspend) }
        source.resume()
    }

    func cancel() {
        source.cancel()
        signal(SIGTSTP, SIG_DFL)
    }
}
