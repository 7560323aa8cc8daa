import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport
import IntercomPhone

/// The desk's screens at 80×24, 100×30 and 160×48 against the same state drawn at 240×70:
/// nothing is cut mid-word (`CutWords`); and in the kiosk the selected call is marked and named,
/// Tab moves the mark, `a` answers the marked call, and a missed call is counted and its journal read.
@Suite("TUI in tmux: the desk's screens", .serialized)
struct DeskScreenTmuxTests {
    static let sizes = [(80, 24), (100, 30), (160, 48)]

    @Test func noScreenCutsAWordFrom80x24Up() async throws {
        try await withStaticPicture {
            let s = try await TUITmuxTests.Session.start(panelNames: ["entrance", "courtyard-gate-by-the-car-park"],
                                                         width: 240, height: 70)
            try await withCleanup({ await s.stop() }) {
                var problems = try await s.tmux.cutWords(screen: "idle", sizes: Self.sizes)
                try await s.tmux.sendKeys("?")
                _ = try await s.tmux.waitForScreen(containing: "close this help")
                problems += try await s.tmux.cutWords(screen: "help", sizes: Self.sizes)
                try await s.tmux.sendKeys("?")
                _ = try await s.tmux.waitForScreen(containing: "Doors")

                let gate = EventRecorder(s.panels[1].events)
                _ = try await s.panels[0].ring(s.uri)
                _ = try await s.tmux.waitForScreen(containing: "ENTRANCE IS CALLING")
                _ = try await s.panels[1].ring(s.uri)
                _ = try await s.tmux.waitForScreen(containing: "courtyard-gate-by-the-car-park ringing")
                let ringing = try await s.tmux.waitForScreen(containing: "a answer entrance")
                #expect(ringing.contains("queue: ▶entrance ringing"), "the first to ring is selected:\n\(ringing)")
                problems += try await s.tmux.cutWords(screen: "ringing", sizes: Self.sizes)

                try await s.tmux.sendKeys("a")
                _ = try await s.tmux.waitForScreen(containing: "In call with entrance")
                _ = try await s.tmux.waitForScreen(containing: "DTMF to entrance")
                problems += try await s.tmux.cutWords(screen: "in call", sizes: Self.sizes)
                try await s.tmux.sendKeys("h")
                _ = try await s.tmux.waitForScreen(containing: "a answer courtyard-gate-by-the-car-park")
                await s.panels[1].hangup()
                _ = try await gate.wait("the gate's call ends") { e -> Bool? in if case .ended = e { true } else { nil } }
                _ = try await s.tmux.waitForScreen(containing: "waiting for calls")

                try await s.tmux.sendKeys("l")
                _ = try await s.tmux.waitForScreen(containing: "Journal")
                _ = try await s.tmux.waitForScreen(containing: "missed")
                problems += try await s.tmux.cutWords(screen: "journal", sizes: Self.sizes)
                #expect(problems.isEmpty, "\(problems.joined(separator: "\n\n"))")
            }
        }
    }

    @Test func kioskMarksTheSelectedCallTabMovesItAndAAnswersIt() async throws {
        try await withStaticPicture {
            let s = try await TUITmuxTests.Session.start(
                panelNames: ["entrance", "gate", "barrier-of-the-long-courtyard-car-park"], kiosk: true, width: 240, height: 70)
            try await withCleanup({ await s.stop() }) {
                _ = try await s.tmux.waitForScreen(containing: "3. barrier")
                var problems = try await s.tmux.cutWords(screen: "kiosk", sizes: Self.sizes)
                let barrier = EventRecorder(s.panels[2].events)
                _ = try await s.panels[1].ring(s.uri)
                _ = try await s.tmux.waitForScreen(containing: "▶2. gate RINGING")
                _ = try await s.panels[2].ring(s.uri)
                let both = try await s.tmux.waitForScreen(containing: " 3. barrier-of-the-long-courtyard-car-park RINGING")
                #expect(both.contains("▶2. gate RINGING") && both.contains("a answer gate"), "the first to ring stays selected:\n\(both)")
                #expect(both.contains("queue: ▶gate ringing") && both.contains("· barrier-of-the-long-courtyard-car-park ringing"))
                problems += try await s.tmux.cutWords(screen: "kiosk ringing", sizes: Self.sizes)
                try await s.tmux.sendKeys("Tab")
                _ = try await s.tmux.waitForScreen(containing: "▶3. barrier-of-the-long-courtyard-car-park RINGING")
                _ = try await s.tmux.waitForScreen(containing: "a answer barrier-of-the-long-courtyard-car-park")
                try await s.tmux.sendKeys("a")
                _ = try await barrier.wait("the marked panel is answered") { e -> Bool? in if case .answered = e { true } else { nil } }
                try await s.tmux.sendKeys("?")
                _ = try await s.tmux.waitForScreen(containing: "close this help")
                problems += try await s.tmux.cutWords(screen: "kiosk help", sizes: Self.sizes)
                // The gate gives up: a missed call, counted; `l` opens the journal over the tiles with it first.
                try await s.tmux.sendKeys("?")
                try await s.tmux.sendKeys("h")
                await s.panels[1].hangup()
                _ = try await s.tmux.waitForScreen(containing: "1 missed call: l")
                try await s.tmux.sendKeys("l")
                _ = try await s.tmux.waitForScreen(containing: "Journal: 1 missed call first")
                problems += try await s.tmux.cutWords(screen: "kiosk journal", sizes: Self.sizes)
                #expect(problems.isEmpty, "\(problems.joined(separator: "\n\n"))")
            }
        }
    }
}
