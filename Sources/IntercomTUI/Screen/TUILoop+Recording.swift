import Foundation
import IntercomBase
import IntercomTerminal
#if canImport(Glibc)
import Glibc
#endif

/// Enter in the journal: the operator camera's recording of the selected entry's moment (`intercom
/// watch TARGET --at TIME`) or the entry's own clip (`intercom log --play ID`), played on this terminal
/// while this screen waits (curses left, the child in our process group so it reads the keys; q there,
/// or the clip's end, comes back here). A call that rings meanwhile closes the recording (SIGTERM) so
/// the screen can show it; so does this screen's quit.
extension TUILoop {
    /// How long the recording may take to close after SIGTERM before it is killed.
    static let recordingCloseGrace: TimeInterval = 5

    func playSelectedRecording() {
        guard let entry = model.journal?.selectedEntry else { return }
        let recording = JournalRecording.of(entry)
        guard let (name, arguments) = recording.command, let title = recording.title else {
            if case .unavailable(let why) = recording { model.say(why, warn: true) }
            return
        }
        guard let command = context.options.childCommand, let program = command.first else {
            model.say("this screen cannot start intercom; run 'intercom \(([name] + arguments).joined(separator: " "))'", warn: true)
            return
        }
        // The child's one line on failure (an unknown camera, no archive) is shown here afterwards:
        // on the terminal it would be wiped by the next drawing.
        // In a folder only we can enter: a predictable name in /tmp could be another user's symlink,
        // which O_TRUNC would follow.
        let folder: PrivateTemporaryDirectory
        do {
            folder = try PrivateTemporaryDirectory.make(prefix: "intercom-\(name)")
        } catch {
            model.say("cannot start the recording: \(error.description)", warn: true)
            return
        }
        let errorPath = folder.path + "/stderr"
        let errorFD = open(errorPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard errorFD >= 0 else {
            model.say("cannot start the recording: \(errorPath): \(String(cString: strerror(errno)))", warn: true)
            folder.remove()
            return
        }
        defer {
            close(errorFD)
            folder.remove()
        }
        pictures.erase()
        curses.erase()
        curses.refresh()
        curses.end()
        let started = ChildProcess.spawn(program: program, argv0: "intercom", arguments: [name] + command.dropFirst() + arguments,
                                         environment: ProcessInfo.processInfo.environment, stdout: 1, stderr: errorFD,
                                         foreground: true)
        var outcome: String?
        switch started {
        case .failure(let error): outcome = "cannot start '\(program) \(name)': \(error.description)"
        case .success(let pid): outcome = waitForRecording(pid)
        }
        // Back from the child's screen: every cell and picture is drawn again.
        curses.invalidate()
        curses.refresh()
        resetPictures()
        let said = (try? String(contentsOfFile: errorPath, encoding: .utf8))?
            .split(separator: "\n").last.map { TerminalSafe.escape(String($0)) }
        if let outcome {
            model.say(outcome, warn: true)
        } else {
            // The child's last line (a failure, or a warning such as "played without its sound") is
            // said with the return, so the user learns both.
            model.say("back from the recording of \(LocalTime(entry.time).clock) (\(title))" + (said.map { ": \($0)" } ?? ""),
                      warn: said != nil)
        }
    }

    /// Waits for the recording's process, taking this screen's events meanwhile; closes it when a
    /// call rings or the screen quits. What to say instead of the child's own line, if anything.
    private func waitForRecording(_ pid: pid_t) -> String? {
        var status: Int32 = 0
        var closing: (why: String, since: Date)?
        var killed = false
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno != EINTR) { break }
            for item in context.inbox.drain() { take(item) }
            if closing == nil, let why = model.ringing.first.map({ "\($0.title) is ringing: the recording was closed" })
                ?? (running ? nil : "quitting") {
                closing = (why, Date())
                kill(pid, SIGTERM)
            }
            if let closing, !killed, Date().timeIntervalSince(closing.since) > Self.recordingCloseGrace {
                kill(pid, SIGKILL)
                killed = true
            }
            usleep(100_000)
        }
        return closing?.why
    }
}
