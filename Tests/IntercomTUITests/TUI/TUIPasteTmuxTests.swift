import IntercomSimulator
import Testing
import IntercomTestSupport

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
                // The h typed after it is a key: the call ends.
                try await s.tmux.sendKeys("h")
                _ = try await s.tmux.waitForScreen(containing: "call with entrance ended: hangup")
                #expect(doors() == 0, "the paste opened a door")
                #expect(!events.all.contains { if case .doorOpened = $0 { true } else { false } }, "\(events.all)")
            }
        }
    }
}
