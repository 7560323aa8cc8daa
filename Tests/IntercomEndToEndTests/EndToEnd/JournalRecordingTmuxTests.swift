import Foundation
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing

/// Enter in the terminal client's journal, in tmux against `intercom simulate-operator` (its
/// camera on, over HTTP on loopback): the operator's entry of a door opened through it offers
/// `Enter recording`; Enter runs `intercom watch home:cam:1 --at …` on the same terminal (the
/// panel's camera from the camera map, its recording), `q` there brings the journal back with a
/// line saying so. The choice of what to play is tested fast in JournalRecordingTests.
@Suite(.removesTestFolders) struct JournalRecordingTmuxTests {
    @Test func enterOnAnOperatorEntryPlaysItsRecordingAndQComesBack() async throws {
        try await OperatorScreen.run(simulator: [], prefix: "intercom-e2e-journal-recording", operatorLines: "log_interval = 1\n") {
            tmux, config, directory in
            // An entry in the operator's log, of panel 1: the screen's engine copies it into the journal.
            let opened = try await IntercomBinary.run(["open", "home:1:0", "--config", config.path], in: directory)
            #expect(opened.status == 0, "\(opened)")
            try await tmux.waitForScreen(containing: "waiting for calls", timeout: .seconds(20))
            // The first copy of the operator's log may come a round after the screen opens.
            var journal = ""
            guard try await TestPatience.eventually(within: .seconds(20), every: .seconds(1), {
                try await tmux.sendKeys("l")
                journal = try await tmux.waitForScreen(containing: "l/q/Esc close")
                guard journal.contains("opened by app") else { try await tmux.sendKeys("l"); return false }
                return true
            }) else { throw HarnessError("the journal never showed the opening:\n\(journal)") }
            #expect(journal.contains("Enter recording"), "\(journal)")

            try await tmux.sendKeys("Enter")
            let watching = try await tmux.waitForScreen(containing: "home:cam:1 ·", timeout: .seconds(30))
            #expect(watching.contains("q quits"), "\(watching)")
            try await tmux.sendKeys("q")
            let back = try await tmux.waitForScreen(containing: "back from the recording", timeout: .seconds(10))
            #expect(back.contains("(home:cam:1)") && back.contains("Enter recording"), "\(back)")
            try await tmux.sendKeys("q")
            try await tmux.sendKeys("q")
            let ended = try await tmux.waitForScreen(containing: "exit=", timeout: .seconds(15))
            #expect(ended.contains("exit=0"), "\(ended)")
        }
    }
}
