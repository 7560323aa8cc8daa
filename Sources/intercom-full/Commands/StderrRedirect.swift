import Foundation

/// Sends fd 2 to `$XDG_STATE_HOME/intercom/tui.log` (else `~/.local/state/…`) while a full-screen
/// view owns the terminal, and puts it back afterwards (once, however often `restore` is called).
final class StderrRedirect {
    private var saved: Int32
    let path: String?

    init(toLogIn environment: [String: String]) {
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { "\($0)/.local/state" } ?? "/tmp"
        let dir = "\(state)/intercom"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
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

    func restore() {
        guard saved >= 0 else { return }
        dup2(saved, 2)
        close(saved)
        saved = -1
    }
}
