import Foundation
import IntercomSimulator
import Testing
import IntercomTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A paste in the real `intercom call` screen in tmux: tmux brackets it (`paste-buffer -p`) because
/// the screen asked; before, "hello world, on my way" opened the door at each `o` and its `h`
/// hung up.
@Suite("TUI in tmux: paste", .serialized)
struct TUIPasteTmuxTests {
    @Test func aPasteDuringACallOpensNoDoorAndHangsNothingUp() async throws {
        try await withStaticPicture {
            let s = try await TUITmuxTests.Session.start(panelNames: ["entrance"], arguments: "call entrance",
                                                         ready: "In call with entrance")
            try await withCleanup({ await s.stop() }) {
                let events = EventRecorder(s.panels[0].events)
                let doors = { ["maindoor", "altdoor"].map { s.panels[0].http.requestCount("intercom_cgi?action=\($0)") }.reduce(0, +) }
                try await s.tmux.paste("hello world, on my way")
                let screen = try await s.tmux.waitForScreen(containing: "paste ignored (22 bytes)")
                #expect(screen.contains("In call with entrance"), "the call goes on:\n\(screen)")
                // Into a prompt it types, its newline no Enter (tmux sends it as CR).
                try await s.tmux.sendKeys("t")
                _ = try await s.tmux.waitForScreen(containing: "transfer to (name or sip:URI): _")
                try await s.tmux.paste("flat 12\nhq")
                _ = try await s.tmux.waitForScreen(containing: "transfer to (name or sip:URI): flat 12hq_")
                try await s.tmux.sendKeys("Escape")
                try await TestPatience.eventually(every: .milliseconds(50)) { try await !s.tmux.capture().contains("transfer to") }
                // The h typed after it is a key: the call ends.
                try await s.tmux.sendKeys("h")
                _ = try await s.tmux.waitForScreen(containing: "call with entrance ended: hangup")
                #expect(doors() == 0, "the paste opened a door")
                #expect(!events.all.contains { if case .doorOpened = $0 { true } else { false } }, "\(events.all)")
            }
        }
    }

    /// Ctrl-Z: the terminal gets its modes back before the screen stops (a shell's pastes are its own),
    /// and the screen asks for them again once continued (the shell turned bracketed paste off before
    /// it ran `fg`), so a paste after `fg` is still no keys. The pane's shell runs without job control,
    /// so Ctrl-Z stops the whole process group, and the group is continued as `fg` would.
    @Test func afterCtrlZAndFgAPasteIsStillNoKeys() async throws {
        try await withStaticPicture {
            let s = try await TUITmuxTests.Session.start(panelNames: ["entrance"], arguments: "call entrance",
                                                         ready: "In call with entrance")
            try await withCleanup({ await s.stop() }) {
                let output = s.dir.path + "/pane-output"
                try await s.tmux.pipeOutput(to: output)
                let processes = try await s.tmux.paneProcesses()
                // The screen's process, not a child of its (which Ctrl-Z stops at once).
                guard let shell = processes.first, let screen = processes.dropFirst().first(where: { Self.name(of: $0).hasPrefix("intercom") }) else {
                    throw HarnessError("no intercom under the pane's shell: \(processes.map { "\($0) \(Self.name(of: $0))" })")
                }
                // The pane's shell may continue the stopped screen itself before the test does (seen: the
                // screen asked again 42 bytes after it let go, before the test read the output), so what
                // is checked is the order in the output — let go, then asked again — not what the output
                // held when the stop was seen. Bytes, not Characters: a read can end inside a character.
                let read = { (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data() }
                let dropMark = Data("\u{1B}[?2004l".utf8), askMark = Data("\u{1B}[?2004h".utf8)
                try await s.tmux.sendKeys("C-z")
                // Before it stops (and whether or not the shell has continued it since), it lets go of the terminal.
                try await Self.waitUntil("the screen let go of bracketed paste for the shell", says: {
                    "(the screen is \(Self.state(of: screen) ?? "gone"), \(read().count) bytes written)"
                }) { read().range(of: dropMark) != nil }
                guard let dropped = read().range(of: dropMark) else { return }
                kill(-getpgid(shell), SIGCONT)
                try await Self.waitUntil("the screen asked for bracketed paste again", says: {
                    let bytes = read()
                    let states = processes.map { "\($0) \(Self.name(of: $0)) \(Self.state(of: $0) ?? "gone")" }
                    return "(processes: \(states); \(bytes.count) bytes; asked at \(Self.offsets(of: askMark, in: bytes)), "
                        + "let go at \(Self.offsets(of: dropMark, in: bytes)))"
                }) {
                    let bytes = read()
                    return bytes.range(of: askMark, in: dropped.upperBound..<bytes.endIndex) != nil
                }
                try await s.tmux.paste("hello world, on my way")
                let after = try await s.tmux.waitForScreen(containing: "paste ignored (22 bytes)")
                #expect(after.contains("In call with entrance"), "\(after)")
                try await s.tmux.sendKeys("h")
                _ = try await s.tmux.waitForScreen(containing: "call with entrance ended: hangup")
            }
        }
    }

    private static func name(of pid: Int32) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The process state letter from /proc (T: stopped).
    private static func offsets(of needle: Data, in bytes: Data) -> [Int] {
        var found: [Int] = []
        var from = bytes.startIndex
        while let range = bytes.range(of: needle, in: from..<bytes.endIndex) {
            found.append(range.lowerBound)
            from = range.upperBound
        }
        return found
    }

    private static func state(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    private static func waitUntil(_ what: String, says: () -> String = { "" }, _ condition: () -> Bool) async throws {
        guard await TestPatience.eventually(every: .milliseconds(50), { condition() }) else {
            throw HarnessError("timed out waiting until \(what) \(says())")
        }
    }
}
