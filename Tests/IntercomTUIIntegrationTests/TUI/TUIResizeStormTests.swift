import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
import IntercomTestSupport
import IntercomPhone
import IntercomBase

/// A terminal being dragged about (or a tiling window manager reflowing) during a call: a hundred
/// resizes as fast as tmux takes them, down to a single cell and up to 300 columns. The TUI must
/// not crash, must end with a layout that fits, and the call must still be there.
@Suite("TUI in tmux: resize storm", .serialized)
struct TUIResizeStormTests {
    static let sizes = [(80, 24), (200, 60), (20, 6), (1, 1), (300, 90), (3, 2), (120, 40), (41, 13), (10, 50), (150, 5)]

    @Test func hundredResizesDuringACall() async throws {
        // The simulated panel sends a static picture, which mediastreamer keeps process-wide.
        try await withStaticPicture {
            let s = try await TUITmuxTests.Session.start(panelNames: ["gate"], width: 120, height: 40)
            try await withCleanup({ await s.stop() }) {
                let events = try await s.ringAndAnswer(name: "gate")

                let clock = ContinuousClock()
                let started = clock.now
                for index in 0..<100 {
                    let (width, height) = Self.sizes[index % Self.sizes.count]
                    try await s.tmux.resize(width: width, height: height)
                }
                let storm = clock.now - started
                let afterStorm = try await s.tmux.capture(includeHistory: true)
                // The pane's shell prints TUI-EXIT when the TUI ends, however it ends.
                #expect(!afterStorm.contains("TUI-EXIT"), "the TUI died in the storm:\n\(afterStorm)")

                let (width, height) = (100, 30)
                try await s.tmux.resize(width: width, height: height)
                let (fits, screen) = try await TUITmuxTests.callScreenFits(s.tmux, width: width, height: height)
                #expect(fits, "after the storm the call screen does not fit \(width)×\(height):\n\(screen)")
                print("resize storm: 100 resizes in \(storm); final layout fits: \(fits)")

                // Still in the call, and the keys still work.
                try await s.tmux.sendKeys("h")
                let reason = try await events.wait("the panel sees the hang-up") { e -> CallEndReason? in
                    if case .ended(_, let reason, _) = e { reason } else { nil } }
                #expect(reason == .remoteHangup)
                #expect(!(try await s.tmux.capture(includeHistory: true)).contains("TUI-EXIT"))
            }
        }
    }
}
