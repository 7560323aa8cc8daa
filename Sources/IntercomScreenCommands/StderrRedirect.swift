import Foundation
import IntercomBase

/// Sends fd 2 to `$XDG_STATE_HOME/intercom/tui.log` (else `~/.local/state/…`) while a full-screen
/// view owns the terminal, and puts it back afterwards (once, however often `restore` is called).
public final class StderrRedirect {
    private var saved: Int32
    public let path: String?

    /// The state folder is made (0700) or checked as every writer of it does (`StateDirectory`); one
    /// that cannot be used leaves stderr on the terminal, with the reason said before the screen.
    public init(toLogIn environment: [String: String], logger: Logger) {
        let dir = StateDirectory.path(environment: environment)
        do {
            try StateDirectory.ensure(dir) { logger.notice("tui log: \($0)") }
        } catch {
            logger.warning("tui log: \(error); C libraries' messages may show on the screen")
            saved = -1
            self.path = nil
            return
        }
        let path = "\(dir)/tui.log"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            saved = -1
            self.path = nil
            return
        }
        saved = dup(2)
        dup2(fd, 2)
        close(fd)
        self.path = path
    }

    public func restore() {
        guard saved >= 0 else { return }
        dup2(saved, 2)
        close(saved)
        saved = -1
    }
}
