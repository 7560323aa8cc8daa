@testable import IntercomTUI
import Testing

/// The title says where the screen's engine runs, and a ring's queue still fits at 80 columns.
@Suite struct ScreenTitleTests {
    @Test func theTitleSaysWhereTheEngineRuns() {
        let queue = "queue: ▶entrance ringing 0:02"
        let attached = ScreenText.title(label: nil, mode: .attached(pid: 48213), state: queue, cols: 80)
        #expect(attached == " intercom [attached to the daemon, pid 48213] — queue: ▶entrance ringing 0:02")
        #expect(attached.count <= 80)
        #expect(ScreenText.title(label: nil, mode: .ownEngine, state: "waiting for calls", cols: 120)
                == " intercom [own engine] — waiting for calls — calls are answered only here")
        // At 80 columns the state comes first; the wide title's words are kept, none cut.
        let narrow = ScreenText.title(label: nil, mode: .ownEngine, state: queue, cols: 80)
        #expect(narrow == " intercom [own engine] — queue: ▶entrance ringing 0:02")
        #expect(ScreenText.title(label: "demo", mode: .ownEngine, state: queue, cols: 80) == " intercom [demo] — \(queue)")
    }

    /// While the daemon is away the title says so in place of "waiting for calls" and the old pid (issue 38).
    @Test func awayTheTitleSaysSoInsteadOfWaitingForCalls() {
        let away = ScreenText.title(label: nil, mode: .away(.init(seconds: 12, long: false)), state: "waiting for calls", cols: 80)
        #expect(away == " intercom [daemon away 12 s] — calls do not ring here until it is back")
        #expect(away.count <= 80)
    }
}
